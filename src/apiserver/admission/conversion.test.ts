/**
 * CRD conversion webhooks against the embedded API server: a CRD stored in v1 and served in v2
 * through a webhook that renames spec.size <-> spec.dimension; reads, lists (one review per LIST)
 * and watches in v2; the checks on the webhook's answer; and matchPolicy Equivalent admission
 * webhooks called with the object converted to the version their rules name.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject, WatchEvent } from '../../api/meta.js';
import type { ConversionReview } from '../../api/admission.js';
import { CustomResourceDefinitions, MutatingWebhookConfigurations, type ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { admissionAnswer, startTestWebhookServer, webhookConfiguration, type TestWebhookServer } from './testkit.js';

setRootLogger(pino({ level: 'silent' }));

const widgets = (version: string): ResourceType => ({ group: 'example.com', version, resource: 'widgets', kind: 'Widget', namespaced: true });
const V1 = widgets('v1');
const V2 = widgets('v2');

type Widget = KObject & { spec?: { size?: number; dimension?: number } };

let env: TestControlPlane;
let client: Client;
let server: TestWebhookServer;
/** How the conversion webhook misbehaves, if at all. */
let fault: 'none' | 'failure' | 'uid' | 'rename' = 'none';

function convert(obj: Widget, desired: string): Widget {
  const { size, dimension, ...rest } = obj.spec ?? {};
  const spec = desired.endsWith('/v2') ? { ...rest, dimension: size } : { ...rest, size: dimension };
  return { ...obj, apiVersion: desired, spec };
}

function conversionAnswer(review: ConversionReview): ConversionReview {
  const req = review.request!;
  const converted = req.objects.map((o) => convert(o as Widget, req.desiredAPIVersion));
  if (fault === 'rename') converted[0].metadata = { ...converted[0].metadata, name: 'renamed' };
  const result = fault === 'failure' ? { status: 'Failure' as const, message: 'cannot convert widgets today' } : { status: 'Success' as const };
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: fault === 'uid' ? 'bogus' : req.uid, convertedObjects: converted, result } };
}

const intSchema = (field: string) => ({
  openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } } },
});

async function eventually<T>(f: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await f();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const widget = (name: string, spec: Widget['spec'], apiVersion = 'example.com/v1'): Widget =>
  ({ apiVersion, kind: 'Widget', metadata: { name, namespace: 'default' }, spec });

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
  return e;
}

describe('conversion webhooks', () => {
  before(async () => {
    [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer()]);
    client = createInProcessClient(env.plane.handler);
    server.handle('/convert', (review) => conversionAnswer(review as unknown as ConversionReview));
    await client.create(CustomResourceDefinitions, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: intSchema('size') }, { name: 'v2', served: true, storage: false, schema: intSchema('dimension') }],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${server.url}/convert`, caBundle: server.caBundle } } },
      },
    });
    await eventually(() => client.list(V2));
  });
  after(async () => {
    await env.stop();
    await server.close();
  });

  test('objects stored in v1 are read, listed and watched in v2 through the webhook', async () => {
    await client.create(V1, widget('small', { size: 1 }));
    const created = await client.create<Widget>(V2, widget('big', { dimension: 9 }, 'example.com/v2'));
    assert.deepEqual(created.spec, { dimension: 9 });
    assert.deepEqual((await client.get<Widget>(V1, 'default', 'big')).spec, { size: 9 }, 'stored in v1 through the webhook');
    assert.deepEqual((await client.get<Widget>(V2, 'default', 'small')).spec, { dimension: 1 });

    const before = server.reviews('/convert').length;
    const list = await client.list<Widget>(V2, { namespace: 'default' });
    assert.deepEqual(list.items.map((w) => `${w.apiVersion} ${w.metadata.name} ${w.spec?.dimension}`), ['example.com/v2 big 9', 'example.com/v2 small 1']);
    const reviews = server.reviews('/convert').slice(before);
    assert.equal(reviews.length, 1, 'one ConversionReview for the whole list');
    assert.equal((reviews[0] as unknown as ConversionReview).request!.objects.length, 2);
    assert.equal((reviews[0] as unknown as ConversionReview).request!.desiredAPIVersion, 'example.com/v2');

    const events: WatchEvent<Widget>[] = [];
    const handle = client.watch<Widget>(V2, { namespace: 'default', resourceVersion: list.metadata.resourceVersion }, { onEvent: (e) => events.push(e), onClose: () => undefined });
    try {
      await client.patch(V1, 'default', 'small', 'merge', { spec: { size: 2 } });
      await eventually(async () => assert.equal(events.length, 1));
      assert.equal(events[0].type, 'MODIFIED');
      assert.equal(events[0].object.apiVersion, 'example.com/v2');
      assert.deepEqual(events[0].object.spec, { dimension: 2 });
    } finally {
      handle.stop();
    }
  });

  test('a failing or malformed answer fails the read with 500 and kube\'s message', async (t: TestContext) => {
    await client.create(V1, widget('fragile', { size: 4 }));
    t.after(() => { fault = 'none'; });
    fault = 'failure';
    const failed = await rejection(client.get(V2, 'default', 'fragile'));
    assert.equal(failed.code, 500);
    assert.equal(failed.message, 'conversion webhook for example.com/v1, Kind=Widget failed: cannot convert widgets today');
    fault = 'uid';
    const uid = await rejection(client.get(V2, 'default', 'fragile'));
    assert.match(uid.message, /^conversion webhook for example\.com\/v1, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "bogus"$/);
    fault = 'rename';
    const renamed = await rejection(client.get(V2, 'default', 'fragile'));
    assert.equal(renamed.message, 'conversion webhook for example.com/v1, Kind=Widget returned invalid converted object at index 0: must have the same name: fragile != renamed');
    fault = 'none';
    assert.deepEqual((await client.get<Widget>(V2, 'default', 'fragile')).spec, { dimension: 4 });
  });

  test('matchPolicy Equivalent calls a v1 webhook for a v2 request with the converted object; Exact does not', async (t: TestContext) => {
    server.handle('/equivalent', (review) => admissionAnswer(review, { patch: [{ op: 'replace', path: '/spec/size', value: 7 }] }));
    server.handle('/exact', (review) => admissionAnswer(review));
    const rules = [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];
    const url = (path: string) => ({ url: `${server.url}${path}`, caBundle: server.caBundle });
    await client.create(MutatingWebhookConfigurations, webhookConfiguration('MutatingWebhookConfiguration', 'widgets', [
      { name: 'equivalent.example.com', clientConfig: url('/equivalent'), rules },
      { name: 'exact.example.com', clientConfig: url('/exact'), rules, matchPolicy: 'Exact' },
    ]));
    t.after(() => client.delete(MutatingWebhookConfigurations, undefined, 'widgets'));
    const created = await client.create<Widget>(V2, widget('equivalent', { dimension: 1 }, 'example.com/v2'));
    assert.deepEqual(created.spec, { dimension: 7 }, 'the v1 patch is mapped back to v2');
    const [review] = server.reviews('/equivalent');
    assert.deepEqual(review.request!.kind, { group: 'example.com', version: 'v1', kind: 'Widget' });
    assert.deepEqual(review.request!.requestKind, { group: 'example.com', version: 'v2', kind: 'Widget' });
    assert.deepEqual(review.request!.resource, { group: 'example.com', version: 'v1', resource: 'widgets' });
    assert.deepEqual((review.request!.object as Widget).spec, { size: 1 });
    assert.equal(server.reviews('/exact').length, 0);
    await client.create(V1, widget('exact', { size: 1 }));
    assert.equal(server.reviews('/exact').length, 1);
  });
});
