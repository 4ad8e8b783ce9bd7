/**
 * Nodes joining and leaving (docs/design/advanced-daemonset.md §6): a node that registers gets a daemon pod, a
 * cordoned (unschedulable) node still gets one (daemon pods tolerate the unschedulable taint), and
 * a node that leaves drops out of the counts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Nodes } from '../../api/resource-type.js';
import { createSimulatedNodes, type SimulatedNodes } from '../../cluster/kubelet/index.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { AdvancedDaemonSets, ads, createNamespace, eventually, getAds, isPodReady, livePods, nodeOf, settled, startDaemonSetEnv } from './fixtures.js';

describe('ADS and node membership', () => {
  let w: WorkloadEnv;
  let extra: SimulatedNodes;
  before(async () => {
    w = await startDaemonSetEnv();
    extra = createSimulatedNodes({ client: w.client, count: 0 });
    await extra.start();
  });
  after(async () => {
    await extra?.stop();
    await w?.stop();
  });

  test('a joining node gets a pod (also when cordoned); a leaving node drops out of the status', async () => {
    const ns = await createNamespace(w.client, 'members');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent'));
    await settled(w.client, ns, 'agent');
    await extra.addNode('node-e');
    await settled(w.client, ns, 'agent', { desired: 5 });
    const onE = (await livePods(w.client, ns, 'agent')).find((p) => nodeOf(p) === 'node-e');
    assert.ok(onE && isPodReady(onE), 'the new node runs a Ready daemon pod');
    await extra.addNode('node-f');
    await w.client.patch(Nodes, undefined, 'node-f', 'merge', { spec: { unschedulable: true } });
    await settled(w.client, ns, 'agent', { desired: 6 });
    await extra.removeNode('node-e');
    await extra.removeNode('node-f');
    await eventually('nodes gone from the counts', async () => {
      const ds = await getAds(w.client, ns, 'agent');
      const s = ds.status;
      return s?.desiredNumberScheduled === 4 && s.currentNumberScheduled === 4 && s.numberMisscheduled === 0 && s.numberAvailable === 4;
    });
  });
});
