/**
 * @kubernetes/client-node against the embedded server: CRUD errors as ApiException, and an informer
 * that keeps its cache right across a server restart and a relist after 410 Gone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createFileStore } from '../../controlplane/storage/file-store.js';

function clients(kubeconfigPath: string) {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return { kc, core: kc.makeApiClient(k8s.CoreV1Api) };
}

const configMap = (name: string): k8s.V1ConfigMap => ({ metadata: { name, namespace: 'default' }, data: { k: name } });

describe('client-node', () => {
  let dir: string;
  let env: TestControlPlane;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-client-node-'));
    env = await startTestControlPlane({ dir, inMemory: false });
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

  test('an informer survives a restart and relists after 410 Gone', async () => {
    const { kc, core } = clients(env.kubeconfig);
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    const names = () => new Set(informer.list('default').map((c) => c.metadata?.name));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('before-restart') });
    await eventually(() => names().has('before-restart'));

    const port = env.plane.port;
    await env.plane.stop();
    // Writes made while the server is down, with history trimmed so the informer's RV is too old.
    const store = await createFileStore({ dir: path.join(dir, 'store') });
    for (let i = 0; i < 5; i++) {
      await store.create(`/core/configmaps/default/offline-${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `offline-${i}`, namespace: 'default', uid: `u${i}` }, data: {} });
    }
    await store.close();
    env = await startTestControlPlane({ dir, inMemory: false, port, store: { historyEvents: 2 } });
    await eventually(() => names().has('offline-0') && names().has('offline-4'), 40_000);
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('after-restart') });
    await eventually(() => names().has('after-restart'));
    assert.deepEqual(errors, []);
    await informer.stop();
  });
});

async function eventually(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}
