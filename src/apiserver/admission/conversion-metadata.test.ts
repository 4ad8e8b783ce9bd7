/**
 * What a CRD conversion webhook may do to metadata, as kube-apiserver enforces it: labels and
 * annotations it changes are kept but must be maps of strings and valid; every other metadata
 * field is restored from the original, and name, namespace and uid may not change at all.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import type { ConversionReview } from '../../api/admission.js';
import { CustomResourceDefinitions, type ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { startTestWebhookServer, type TestWebhookServer } from './testkit.js';

setRootLogger(pino({ level: 'silent' }));

const sprockets = (version: string): ResourceType => ({ group: 'example.com', version, resource: 'sprockets', kind: 'Sprocket', namespaced: true });
const V1 = sprockets('v1');
const V2 = sprockets('v2');

let env: TestControlPlane;
let client: Client;
let server: TestWebhookServer;
/** Applied to the metadata of every object the webhook converts. */
let rewrite: (metadata: Record<string, unknown>) => void = () => undefined;

function conversionAnswer(review: ConversionReview): ConversionReview {
  const req = review.request!;
  const convertedObjects = req.objects.map((o) => {
    const metadata = structuredClone(o.metadata) as Record<string, unknown>;
    rewrite(metadata);
    return { ...o, apiVersion: req.desiredAPIVersion, metadata } as KObject;
  });
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, convertedObjects, result: { status: 'Success' } } };
}

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
  return e;
}

/** Reads `name` in v2 with the webhook rewriting metadata as `change` says. */
function readWith(t: TestContext, name: string, change: (metadata: Record<string, unknown>) => void): Promise<KObject> {
  rewrite = change;
  t.after(() => { rewrite = () => undefined; });
  return client.get(V2, 'default', name);
}

const invalidMetadata = 'conversion webhook for example.com/v1, Kind=Sprocket returned invalid metadata in object at index 0: ';

describe('conversion webhook metadata', () => {
  before(async () => {
    [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer()]);
    client = createInProcessClient(env.plane.handler);
    server.handle('/convert', (review) => conversionAnswer(review as unknown as ConversionReview));
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
    await client.create(CustomResourceDefinitions, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'sprockets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' },
        versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${server.url}/convert`, caBundle: server.caBundle } } },
      },
    });
    for (let i = 0; ; i++) {
      try {
        await client.list(V2);
        break;
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    await client.create(V1, { apiVersion: 'example.com/v1', kind: 'Sprocket', metadata: { name: 's', namespace: 'default', labels: { app: 's' }, finalizers: ['example.com/keep'] }, spec: { size: 1 } });
  });
  after(async () => {
    await client.patch(V1, 'default', 's', 'merge', { metadata: { finalizers: null } });
    await env.stop();
    await server.close();
  });

  test('changed labels and annotations are kept; other metadata changes are undone', async (t) => {
    const read = await readWith(t, 's', (m) => {
      m.labels = { app: 's', converted: 'yes' };
      m.annotations = { 'example.com/note': 'from conversion' };
      m.finalizers = [];
      m.generation = 99;
      m.creationTimestamp = '2000-01-01T00:00:00Z';
    });
    assert.deepEqual(read.metadata.labels, { app: 's', converted: 'yes' });
    assert.deepEqual(read.metadata.annotations, { 'example.com/note': 'from conversion' });
    assert.deepEqual(read.metadata.finalizers, ['example.com/keep']);
    assert.equal(read.metadata.generation, 1);
    assert.notEqual(read.metadata.creationTimestamp, '2000-01-01T00:00:00Z');
  });

  test('an invalid label or annotation key the webhook introduced fails the read with kube\'s message', async (t) => {
    const label = await rejection(readWith(t, 's', (m) => { m.labels = { 'bad key!': 'x' }; }));
    assert.equal(label.code, 500);
    assert.match(label.message, new RegExp(`^${escape(invalidMetadata)}metadata\\.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`));
    const annotation = await rejection(readWith(t, 's', (m) => { m.annotations = { '/nope': 'x' }; }));
    assert.match(annotation.message, new RegExp(`^${escape(invalidMetadata)}metadata\\.annotation: Invalid value: "/nope": prefix part must be non-empty$`));
  });

  test('labels and annotations must be maps of strings', async (t) => {
    const number = await rejection(readWith(t, 's', (m) => { m.labels = { app: 7 }; }));
    assert.equal(number.message, `${invalidMetadata}metadata.labels[app] must be a string, but is float64 in converted object`);
    const list = await rejection(readWith(t, 's', (m) => { m.annotations = ['a']; }));
    assert.equal(list.message, `${invalidMetadata}invalid metadata.annotations of type []interface {} in converted object`);
  });

  test('name, namespace and uid may not change at all', async (t) => {
    const uid = await rejection(readWith(t, 's', (m) => { m.uid = 'another'; }));
    assert.match(uid.message, /^conversion webhook for example\.com\/v1, Kind=Sprocket returned invalid converted object at index 0: must have the same UID: [0-9a-f-]{36} != another$/);
    const namespace = await rejection(readWith(t, 's', (m) => { m.namespace = 'elsewhere'; }));
    assert.equal(namespace.message, 'conversion webhook for example.com/v1, Kind=Sprocket returned invalid converted object at index 0: must have the same namespace: default != elsewhere');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
