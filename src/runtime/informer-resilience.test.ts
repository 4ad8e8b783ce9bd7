/**
 * Informers over HTTP when the network and the server misbehave: a reconnect held back past the
 * server's history (410 Expired, then a relist), and a full API server restart with writes made
 * while it was down. Either way the cache must end equal to the server's list.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createHttpClient } from '../client/http-client.js';
import { setRootLogger } from '../machinery/log.js';
import { createFileStore } from '../apiserver/storage/file-store.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { promRegistry } from '../apiserver/http/metrics.js';
import { Informer } from './informer.js';
import { withWatchFaults } from './watch-faults.js';

setRootLogger(pino({ level: 'silent' }));

const cm = (name: string, v = '1'): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v } });

const httpClient = (kubeconfigPath: string): Client => createHttpClient({ kubeconfigPath });

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function expiredWatches(): Promise<number> {
  return Number(/^apiserver_watch_expired_total (\d+)/m.exec(await promRegistry.metrics())?.[1] ?? 0);
}

function tracked(client: Client) {
  const events: string[] = [];
  const informer = new Informer({ client, type: ConfigMaps, namespace: 'default', backoff: { initialMs: 50, maxMs: 400 } });
  informer.addEventHandler({
    onAdd: (o) => events.push(`add ${o.metadata.name}`),
    onUpdate: (_, o) => events.push(`update ${o.metadata.name}`),
    onDelete: (o) => events.push(`delete ${o.metadata.name}`),
  });
  informer.start();
  const view = (objs: KObject[]) => objs.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort().join(',');
  const matches = async (server: Client) => view(informer.list()) === view((await server.list(ConfigMaps, { namespace: 'default' })).items);
  return { informer, events, matches };
}

describe('informer resilience over HTTP', () => {
  let dir: string;
  let env: TestControlPlane;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-informer-'));
    env = await startTestControlPlane({ dir, inMemory: false, store: { historyEvents: 2 } });
  });
  after(async () => {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('a reconnect that arrives after history moved on relists (410) and catches up', async () => {
    const direct = httpClient(env.kubeconfig);
    await direct.create(ConfigMaps, cm('doomed'));
    const faults = withWatchFaults(httpClient(env.kubeconfig));
    const { informer, events, matches } = tracked(faults.client);
    await informer.waitForSync();
    // Listed before it existed, so seeing it proves the watch is established on the server.
    await direct.create(ConfigMaps, cm('seen-live'));
    await eventually(() => informer.get('default', 'seen-live') !== undefined);
    const expiredBefore = await expiredWatches();
    // The server ends the watch; the informer's reconnect is held back while history moves on.
    faults.pause();
    env.plane.endWatches();
    await direct.delete(ConfigMaps, 'default', 'doomed');
    for (let i = 0; i < 5; i++) await direct.create(ConfigMaps, cm(`missed-${i}`));
    faults.resume();
    await eventually(() => matches(direct));
    assert.ok((await expiredWatches()) > expiredBefore, 'the informer did resume from a compacted resourceVersion');
    assert.ok(events.includes('delete doomed'), 'the relist reports the deletion it missed');
    assert.ok([0, 1, 2, 3, 4].every((i) => events.includes(`add missed-${i}`)));
    informer.stop();
  });

  test('survives an API server restart, with writes made while it was down', async () => {
    const client = httpClient(env.kubeconfig);
    await client.create(ConfigMaps, cm('before-restart'));
    await client.create(ConfigMaps, cm('deleted-offline'));
    const { informer, events, matches } = tracked(client);
    await eventually(() => informer.get('default', 'deleted-offline') !== undefined);
    const port = env.plane.port;
    await env.plane.stop();
    const store = await createFileStore({ dir: path.join(dir, 'store') });
    for (let i = 0; i < 3; i++) {
      await store.create(`/core/configmaps/default/offline-${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `offline-${i}`, namespace: 'default', uid: `offline-uid-${i}` }, data: {} });
    }
    await store.delete('/core/configmaps/default/deleted-offline');
    await store.close();
    env = await startTestControlPlane({ dir, inMemory: false, port, store: { historyEvents: 2 } });
    await eventually(() => matches(client));
    assert.ok(events.includes('delete deleted-offline'));
    await client.create(ConfigMaps, cm('after-restart'));
    await eventually(() => events.includes('add after-restart'));
    informer.stop();
  });
});
