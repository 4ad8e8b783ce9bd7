/** Every acknowledged write survives `kill -9` of `kruise up`, and resourceVersions keep increasing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiClientFromKubeconfig, startUp, stopChild } from '../../testing/process.js';

test('acknowledged objects survive kill -9 with their resourceVersions', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-durable-'));
  try {
    const first = await startUp(['--port', '0', '--data-dir', dir]);
    const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
    const acknowledged = new Map<string, string>();
    let stop = false;
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const name = `cm-${w}-${i}`;
        const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name }, data: { i: String(i) } }).catch(() => undefined);
        if (r?.status === 201) acknowledged.set(name, r.body.metadata.resourceVersion);
        else if (!r) return;
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    assert.ok(acknowledged.size > 50, `only ${acknowledged.size} writes acknowledged`);
    const maxRv = Math.max(...[...acknowledged.values()].map(Number));

    const second = await startUp(['--port', '0', '--data-dir', dir]);
    try {
      const api2 = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
      const list = await api2.request('GET', '/api/v1/namespaces/default/configmaps');
      const stored = new Map<string, string>(list.body.items.map((c: { metadata: { name: string; resourceVersion: string } }) => [c.metadata.name, c.metadata.resourceVersion]));
      for (const [name, rv] of acknowledged) assert.equal(stored.get(name), rv, `${name} lost or changed`);
      const created = await api2.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'after-crash' } });
      assert.equal(created.status, 201);
      assert.ok(Number(created.body.metadata.resourceVersion) > maxRv, 'resourceVersion continues past the crash');
    } finally {
      assert.equal(await stopChild(second.child), 0, 'SIGTERM shuts down cleanly');
      assert.match(second.output(), /shutting down/);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
