/**
 * @kubernetes/client-node against the embedded server: CRUD errors as ApiException, and informers that
 * keep their cache right across a server restart and relist after 410 Gone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createFileStore } from '../../apiserver/storage/file-store.js';
import { startTcpProxy } from '../../testing/tcp-proxy.js';
import { promRegistry } from '../../apiserver/http/metrics.js';

function clients(kubeconfigPath: string) {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return { kc, core: kc.makeApiClient(k8s.CoreV1Api) };
}

const configMap = (name: string): k8s.V1ConfigMap => ({ metadata: { name, namespace: 'default' }, data: { k: name } });

/** An informer restarted on errors, client-node's documented pattern; `close` stops it for good. */
async function startInformer(kubeconfig: string, serverPort?: number) {
  const { kc, core } = clients(kubeconfig);
  if (serverPort) {
    const cluster = kc.getCurrentCluster()!;
    kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: `https://127.0.0.1:${serverPort}` } : c));
  }
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
  let closed = false;
  let restarts = 0;
  informer.on('error', () => {
    if (closed) return;
    restarts++;
    setTimeout(() => { if (!closed) void informer.start(); }, 200);
  });
  await informer.start();
  return {
    names: () => new Set(informer.list('default').map((c) => c.metadata?.name)),
    restarts: () => restarts,
    close: async () => { closed = true; await informer.stop(); },
  };
}

describe('client-node', () => {
  let dir: string;
  let env: TestControlPlane;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-client-node-'));
    env = await startTestControlPlane({ dir, inMemory: false, store: { historyEvents: 3 } });
  });
  after(async () => {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('CRUD and errors', async () => {
    const { core } = clients(env.kubeconfig);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    assert.ok(created.metadata?.uid);
    await assert.rejects(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), (e: k8s.ApiException<string>) => {
      assert.equal(e.code, 409);
      assert.match(String(e.body), /AlreadyExists/);
      return true;
    });
    await assert.rejects(core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' }), (e: k8s.ApiException<string>) => e.code === 404);
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    assert.ok(list.items.some((c) => c.metadata?.name === 'a'));
  });

  test('an informer relists after 410 Gone without an error', async () => {
    const proxy = await startTcpProxy(env.plane.port);
    const informer = await startInformer(env.kubeconfig, proxy.port);
    const { core } = clients(env.kubeconfig);
    const expiredBefore = await expiredWatches();
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('seen-live') });
    await eventually(() => informer.names().has('seen-live'));
    // The watch ends and the informer's reconnection is held up in the network while more events
    // happen than the server's history keeps (3), so it resumes from a resourceVersion that is gone.
    proxy.pause();
    env.plane.endWatches();
    for (let i = 0; i < 6; i++) await core.createNamespacedConfigMap({ namespace: 'default', body: configMap(`missed-${i}`) });
    proxy.resume();
    await eventually(() => [0, 1, 2, 3, 4, 5].every((i) => informer.names().has(`missed-${i}`)));
    assert.equal(informer.restarts(), 0, 'the 410 is handled by a relist, not an error');
    assert.ok((await expiredWatches()) > expiredBefore, 'the informer did resume from a too-old resourceVersion');
    await informer.close();
    await proxy.close();
  });

  test('an informer survives a server restart, including writes made while it was down', async () => {
    const informer = await startInformer(env.kubeconfig);
    const { core } = clients(env.kubeconfig);
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('before-restart') });
    await eventually(() => informer.names().has('before-restart'));
    const port = env.plane.port;
    await env.plane.stop();
    const store = await createFileStore({ dir: path.join(dir, 'store') });
    for (let i = 0; i < 5; i++) {
      await store.create(`/core/configmaps/default/offline-${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `offline-${i}`, namespace: 'default', uid: `u${i}` }, data: {} });
    }
    await store.close();
    env = await startTestControlPlane({ dir, inMemory: false, port, store: { historyEvents: 3 } });
    await eventually(() => informer.names().has('offline-0') && informer.names().has('offline-4'));
    const { core: core2 } = clients(env.kubeconfig);
    await core2.createNamespacedConfigMap({ namespace: 'default', body: configMap('after-restart') });
    await eventually(() => informer.names().has('after-restart'));
    await informer.close();
  });
});

async function expiredWatches(): Promise<number> {
  const text = await promRegistry.metrics();
  return Number(/^apiserver_watch_expired_total (\d+)/m.exec(text)?.[1] ?? 0);
}

async function eventually(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}
