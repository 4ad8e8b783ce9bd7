/**
 * A watch served in a version the CRD's conversion webhook produces: when the webhook fails, the
 * watch ends with an ERROR event carrying a 500 InternalError Status (kube's storage watch does the
 * same with a failed decode), instead of silently skipping the event.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject, WatchEvent } from '../../api/meta.js';
import type { ConversionReview } from '../../api/admission.js';
import { CustomResourceDefinitions, type ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import { setRootLogger } from '../../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { startTestWebhookServer, type TestWebhookServer } from '../admission/testkit.js';
import type { WatchDelivery } from './watch.js';

setRootLogger(pino({ level: 'silent' }));

const gadgets = (version: string): ResourceType => ({ group: 'example.com', version, resource: 'gadgets', kind: 'Gadget', namespaced: true });
const V1 = gadgets('v1');
const V2 = gadgets('v2');
const failure = 'Internal error occurred: conversion webhook for example.com/v1, Kind=Gadget failed: cannot convert gadgets today';

let env: TestControlPlane;
let client: Client;
let server: TestWebhookServer;
let failing = false;

function conversionAnswer(review: ConversionReview): ConversionReview {
  const req = review.request!;
  const convertedObjects = req.objects.map((o) => ({ ...o, apiVersion: req.desiredAPIVersion }));
  const result = failing ? { status: 'Failure' as const, message: 'cannot convert gadgets today' } : { status: 'Success' as const };
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, convertedObjects, result } };
}

async function eventually(check: () => void | Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const gadget = (name: string, size: number): KObject => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: 'default' }, spec: { size } });

describe('watch through a conversion webhook', () => {
  before(async () => {
    [env, server] = await Promise.all([startTestControlPlane({ inMemory: true }), startTestWebhookServer()]);
    client = createInProcessClient(env.plane.handler);
    server.handle('/convert', (review) => conversionAnswer(review as unknown as ConversionReview));
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
    await client.create(CustomResourceDefinitions, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${server.url}/convert`, caBundle: server.caBundle } } },
      },
    });
    await eventually(async () => { await client.list(V2); });
  });
  after(async () => {
    await env.stop();
    await server.close();
  });

  test('a failed conversion ends a client\'s watch with a 500 InternalError Status after the events before it', async (t) => {
    t.after(() => { failing = false; });
    await client.create(V1, gadget('a', 1));
    const list = await client.list(V2, { namespace: 'default' });
    const events: WatchEvent<KObject>[] = [];
    let closed: unknown = 'open';
    const handle = client.watch(V2, { namespace: 'default', resourceVersion: list.metadata.resourceVersion }, {
      onEvent: (e) => events.push(e),
      onClose: (err) => { closed = err; },
    });
    t.after(() => handle.stop());
    await client.patch(V1, 'default', 'a', 'merge', { spec: { size: 2 } });
    await eventually(() => assert.equal(events.length, 1));
    assert.equal(events[0].object.apiVersion, 'example.com/v2');
    failing = true;
    await client.patch(V1, 'default', 'a', 'merge', { spec: { size: 3 } });
    await eventually(() => assert.notEqual(closed, 'open'));
    assert.ok(closed instanceof StatusError, `closed with ${String(closed)}`);
    assert.equal(closed.code, 500);
    assert.equal(closed.reason, 'InternalError');
    assert.equal(closed.message, failure);
    assert.equal(events.length, 1, 'nothing is delivered in place of the failed event');
  });

  test('over HTTP the server writes the ERROR event and then closes the watch stream', async (t) => {
    t.after(() => { failing = false; });
    failing = true;
    const { request } = await import('node:https');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${env.plane.url}/apis/example.com/v2/namespaces/default/gadgets?watch=true`, {
        ca: env.plane.pki.ca.certPem, headers: { authorization: `Bearer ${env.plane.pki.adminToken}` },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(5_000, () => req.destroy(new Error('the stream stayed open')));
      req.end();
    });
    const lines = body.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { code?: number } });
    assert.deepEqual(lines.map((l) => [l.type, l.object.code]), [['ERROR', 500]]);
  });

  test('the registry delivers the ERROR Status, then ends the watch and delivers nothing more', async (t) => {
    t.after(() => { failing = false; });
    const v2 = env.plane.registry.table.lookup('example.com', 'v2', 'gadgets')!;
    const deliveries: WatchDelivery[] = [];
    let ended = 0;
    failing = true;
    const w = env.plane.registry.watch(v2, 'default', {}, (d) => deliveries.push(d), () => { ended++; });
    t.after(() => w.stop());
    await eventually(() => assert.equal(ended, 1));
    failing = false;
    await client.create(V1, gadget('b', 1));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(deliveries.map((d) => d.type), ['ERROR'], 'the initial ADDED event failed; later events are not delivered');
    assert.deepEqual(deliveries[0].object, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: 'InternalError',
      message: failure, details: { causes: [{ message: failure.replace('Internal error occurred: ', '') }] },
    });
  });
});
