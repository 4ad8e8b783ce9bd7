/**
 * The webhooks' cached reads on the manager's informer factory: they open no list or watch of their
 * own (one cache per kind for controllers and webhooks), read through to the API server until the
 * manager starts the factory, then answer from its cache; on a factory of their own they watch.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ConfigMaps } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { setRootLogger } from '../../machinery/log.js';
import { SharedInformerFactory } from '../../runtime/informer-factory.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { cachedReads } from './cached-reads.js';

setRootLogger(pino({ level: 'silent' }));

/** A client that counts its lists and watches. */
function counting(inner: Client): { client: Client; calls: { list: number; watch: number } } {
  const calls = { list: 0, watch: 0 };
  const client: Client = {
    ...inner,
    list: (type, options) => { calls.list++; return inner.list(type, options); },
    watch: (type, options, callbacks) => { calls.watch++; return inner.watch(type, options, callbacks); },
    get: (type, namespace, name) => inner.get(type, namespace, name),
  };
  return { client, calls };
}

describe('webhook cached reads', () => {
  let env: TestControlPlane;
  let base: Client;
  before(async () => {
    env = await startTestControlPlane({ inMemory: true });
    base = createInProcessClient(env.plane.handler);
    await base.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'default' }, data: { a: '1' } });
  });
  after(async () => env.stop());

  test('on the manager factory they share its informer and watch nothing of their own', async () => {
    const manager = counting(base);
    const webhook = counting(base);
    const factory = new SharedInformerFactory({ client: manager.client });
    const controllerInformer = factory.informerFor(ConfigMaps);
    const reads = cachedReads(webhook.client, [ConfigMaps], factory);
    // Before the manager starts its caches, a read goes to the API server.
    assert.equal((await reads.client.list(ConfigMaps, { namespace: 'default' })).items.length, 1);
    assert.equal(webhook.calls.list, 1);
    factory.start();
    assert.equal(await factory.waitForSync(), true);
    const listed = await reads.client.list(ConfigMaps, { namespace: 'default' });
    assert.deepEqual(listed.items.map((o) => o.metadata.name), ['one']);
    assert.notEqual(listed.items[0], controllerInformer.get('default', 'one'), 'callers get copies');
    assert.deepEqual({ webhook: webhook.calls, managerWatches: manager.calls.watch }, { webhook: { list: 1, watch: 0 }, managerWatches: 1 });
    reads.stop();
    assert.equal(controllerInformer.hasSynced(), true);
    factory.stop();
  });

  test('without a factory they run one of their own', async () => {
    const webhook = counting(base);
    const reads = cachedReads(webhook.client, [ConfigMaps]);
    const deadline = Date.now() + 10_000;
    while (webhook.calls.watch === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(webhook.calls.watch, 1);
    reads.stop();
  });
});
