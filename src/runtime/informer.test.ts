/**
 * Informers against the embedded control plane through the in-process client: handlers, indexes,
 * frozen cache objects, and a relist after 410 Expired that reports every change it missed.
 * (A restart of the whole API server is covered in informer-restart.test.ts over HTTP.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { byLabel, IndexNames } from './indexers.js';
import { Informer } from './informer.js';
import { SharedInformerFactory } from './informer-factory.js';
import { withWatchFaults } from './watch-faults.js';

setRootLogger(pino({ level: 'silent' }));

const cm = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data });

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    handler: {
      onAdd: (o: KObject) => events.push(`add ${o.metadata.name}`),
      onUpdate: (old: KObject, o: KObject) => events.push(`update ${o.metadata.name} ${JSON.stringify(old.data)}->${JSON.stringify(o.data)}`),
      onDelete: (o: KObject) => events.push(`delete ${o.metadata.name} ${JSON.stringify(o.data)}`),
    },
  };
}

describe('informer', () => {
  let env: TestControlPlane;
  let client: Client;
  before(async () => {
    env = await startTestControlPlane({ store: { historyEvents: 2 } });
    client = createInProcessClient(env.plane.handler);
  });
  after(async () => { await env.stop(); });

  test('lists, then watches: handlers, indexes and frozen objects', async () => {
    await client.create(ConfigMaps, cm('pre', { v: '0' }, { app: 'web' }));
    const informer = new Informer({ client, type: ConfigMaps, namespace: 'default', freeze: true, backoff: { initialMs: 10 } });
    informer.addIndexer(IndexNames.label('app'), byLabel('app'));
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    informer.start();
    assert.equal(await informer.waitForSync(), true);
    assert.ok(events.includes('add pre'));
    events.length = 0;
    const created = await client.create(ConfigMaps, cm('a', { v: '1' }, { app: 'web' }));
    await client.update(ConfigMaps, { ...created, data: { v: '2' } });
    await client.delete(ConfigMaps, 'default', 'a');
    await eventually(() => events.length === 3);
    assert.deepEqual(events, ['add a', 'update a {"v":"1"}->{"v":"2"}', 'delete a {"v":"2"}']);
    const web = informer.byIndex(IndexNames.label('app'), 'web');
    assert.deepEqual(web.map((o) => o.metadata.name), ['pre']);
    assert.equal(web[0].kind, 'ConfigMap', 'list items get their kind');
    assert.throws(() => { (web[0].data as Record<string, string>).v = 'mutated'; }, TypeError);
    const late = recorder();
    const unsubscribe = informer.addEventHandler(late.handler);
    assert.ok(late.events.includes('add pre'), 'a late handler gets the cache replayed');
    unsubscribe();
    informer.stop();
    assert.equal(await informer.waitForSync(), true, 'still synced after stop');
  });

  test('relists after 410 Expired and reports exactly what it missed', async () => {
    const ctl = withWatchFaults(client);
    for (const name of ['x-keep', 'x-gone', 'x-changed']) await client.create(ConfigMaps, cm(name, { v: '1' }));
    const informer = new Informer({ client: ctl.client, type: ConfigMaps, namespace: 'default', labelSelector: '', backoff: { initialMs: 10 } });
    informer.start();
    await informer.waitForSync();
    // Listed before it existed, so seeing it proves the watch is established on the server.
    await client.create(ConfigMaps, cm('x-live'));
    await eventually(() => informer.get('default', 'x-live') !== undefined);
    const { events, handler } = recorder();
    informer.addEventHandler(handler);
    events.length = 0;
    // The watch ends and the reconnect is held back while more changes happen than history keeps (2).
    ctl.pause();
    ctl.endWatches();
    await client.delete(ConfigMaps, 'default', 'x-gone');
    const changed = await client.get(ConfigMaps, 'default', 'x-changed');
    await client.update(ConfigMaps, { ...changed, data: { v: '2' } });
    for (let i = 0; i < 4; i++) await client.create(ConfigMaps, cm(`y-${i}`));
    ctl.resume();
    await eventually(() => events.length >= 6);
    assert.ok(ctl.expired() >= 1, 'the informer did resume from a compacted resourceVersion');
    assert.deepEqual(events.sort(), ['add y-0', 'add y-1', 'add y-2', 'add y-3', 'delete x-gone {"v":"1"}', 'update x-changed {"v":"1"}->{"v":"2"}']);
    const server = await client.list(ConfigMaps, { namespace: 'default' });
    const view = (objs: KObject[]) => objs.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
    assert.deepEqual(view(informer.list()), view(server.items));
    await client.create(ConfigMaps, cm('after-relist'));
    await eventually(() => events.includes('add after-relist'));
    informer.stop();
  });

  test('the shared factory hands out one informer per type and selection', async () => {
    const factory = new SharedInformerFactory({ client });
    const a = factory.informerFor(ConfigMaps, { namespace: 'default' });
    assert.equal(factory.informerFor(ConfigMaps, { namespace: 'default' }), a);
    assert.notEqual(factory.informerFor(ConfigMaps, { namespace: 'default', labelSelector: 'app=web' }), a);
    factory.start();
    assert.equal(await factory.waitForSync(), true);
    assert.equal(factory.hasSynced(), true);
    const late = factory.informerFor(ConfigMaps, { namespace: 'kube-system' });
    assert.equal(await late.waitForSync(), true, 'informers asked for after start are started');
    factory.stop();
  });
});

test('cached objects carry no managedFields unless asked to keep them', async () => {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { a: 'b' } }, data: { k: 'v' } });
  const trimmed = new Informer({ client, type: ConfigMaps, namespace: 'default' });
  const kept = new Informer({ client, type: ConfigMaps, namespace: 'default', keepManagedFields: true });
  try {
    await client.create(ConfigMaps, cm('before'));
    for (const inf of [trimmed, kept]) { inf.start(); await inf.waitForSync(); }
    await client.create(ConfigMaps, cm('after'));
    const deadline = Date.now() + 5000;
    while ((!trimmed.get('default', 'after') || !kept.get('default', 'after')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    for (const name of ['before', 'after']) {
      assert.equal(trimmed.get('default', name)?.metadata.managedFields, undefined, `${name}: listed and watched objects are trimmed`);
      assert.ok(kept.get('default', name)?.metadata.managedFields?.length, `${name}: kept on request`);
      assert.equal(trimmed.get('default', name)?.metadata.resourceVersion, kept.get('default', name)?.metadata.resourceVersion);
    }
  } finally {
    trimmed.stop();
    kept.stop();
    await env.stop();
  }
});

describe('informers of the embedded server share its objects (performance.md §20)', () => {
  let env: TestControlPlane;
  let client: Client;
  const frozen = process.env.KRUISE_FREEZE_WATCHED;
  before(async () => {
    delete process.env.KRUISE_FREEZE_WATCHED; // the suite's safety net hands out frozen copies instead
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
  });
  after(async () => {
    if (frozen !== undefined) process.env.KRUISE_FREEZE_WATCHED = frozen;
    await env.stop();
  });

  test('a watched object is the stored one, not parsed again; dropping managedFields leaves the store alone', async (t) => {
    const informer = new Informer({ client, type: ConfigMaps, namespace: 'default', backoff: { initialMs: 10 } });
    t.after(() => informer.stop());
    informer.start();
    await informer.waitForSync();
    await client.create(ConfigMaps, cm('shared', { v: '1' }));
    await eventually(() => informer.get('default', 'shared') !== undefined);
    const cached = informer.get('default', 'shared')!;
    const stored = env.plane.store.list('').items.find((i) => i.object.metadata.name === 'shared');
    assert.ok(stored, 'stored');
    assert.equal(cached.data, stored.object.data, 'the cache holds the stored data object itself');
    assert.equal(cached.metadata.managedFields, undefined);
    assert.equal(stored.object.metadata.managedFields?.length, 1, 'the stored object keeps its managedFields');
    const read = await client.get(ConfigMaps, 'default', 'shared');
    assert.deepEqual(read.data, { v: '1' });
    assert.equal(read.metadata.managedFields?.length, 1, 'a read still answers managedFields');
  });
});
