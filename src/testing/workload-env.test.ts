/** The workload test kit: the manager restarts with its controllers and the cluster keeps running. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../api/resource-type.js';
import { setupCloneSetController } from '../controllers/cloneset/index.js';
import { startWorkloadEnv, eventually } from './workload-env.js';

test('workload env: a CloneSet converges before and after a manager restart', async () => {
  const w = await startWorkloadEnv({ nodes: 1, controllers: (m) => { setupCloneSetController(m); } });
  try {
    const cs = (replicas: number) => ({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'kit', namespace: 'default' },
      spec: { replicas, selector: { matchLabels: { app: 'kit' } }, template: { metadata: { labels: { app: 'kit' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const clonesets = { group: 'apps.kruise.io', version: 'v1beta1', resource: 'clonesets', kind: 'CloneSet', namespaced: true };
    await w.client.create(clonesets, cs(2));
    const count = async () => (await w.client.list(Pods, { namespace: 'default', labelSelector: 'app=kit' })).items.length;
    await eventually('2 pods', async () => (await count()) === 2);
    await w.stopManager();
    await w.client.patch(clonesets, 'default', 'kit', 'merge', { spec: { replicas: 3 } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await count(), 2, 'no controller while the manager is stopped');
    await w.startManager();
    await eventually('3 pods', async () => (await count()) === 3);
  } finally {
    await w.stop();
  }
});

test('daemons: one kruise-daemon per simulated node, synced, over the nodes\' CRI sockets', async () => {
  const w = await startWorkloadEnv({ nodes: 2, daemons: true, controllers: () => undefined });
  try {
    const daemons = w.daemons()!.daemons;
    assert.deepEqual(daemons.map((d) => d.nodeName).sort(), ['kruise-node-0', 'kruise-node-1']);
    // ready = every informer of every daemon controller synced, which follows start() shortly
    await eventually('daemons ready', async () => daemons.every((d) => d.ready()));
    assert.ok(w.nodes().criSocket('kruise-node-0'));
  } finally {
    await w.stop();
  }
});
