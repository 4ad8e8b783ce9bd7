/** ADS acceptance D10 (partitioned scaling), D11 (preDelete hook) and D12 (OnDelete, Failed pods) of docs/design/advanced-daemonset.md §11. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Events, Pods } from '../../api/resource-type.js';
import { holds, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedDaemonSets, IMG2, ads, byNode, createNamespace, eventually, getAds, livePods, node, nodeOf, revisionOf, rollingUpdate,
  setImage, settled, startDaemonSetEnv, taintNode, type Pod,
} from './fixtures.js';

const nodesOf = async (w: WorkloadEnv, ns: string) => (await livePods(w.client, ns, 'agent')).map(nodeOf).sort();

describe('ADS scaling, hooks and OnDelete (D10 D12)', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startDaemonSetEnv(); });
  after(async () => { await w?.stop(); });

  test('D10: partitionedScaling creates pods only beyond the partition, in node name order', async () => {
    const ns = await createNamespace(w.client, 'd10');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { scaleStrategy: { partitionedScaling: true }, updateStrategy: { rollingUpdate: { partition: 3 } } }));
    const onNodes = (want: string[]) => eventually(`pods on ${want.join(',')}`, async () => {
      const ds = await getAds(w.client, ns, 'agent');
      return ds.status?.observedGeneration === ds.metadata.generation && JSON.stringify(await nodesOf(w, ns)) === JSON.stringify(want);
    });
    await onNodes([node.a]);
    await holds('exactly one pod with partition 3', async () => {
      const n = await nodesOf(w, ns);
      return n.length === 1 ? undefined : `pods on ${n.join(',')}`;
    }, 1_500);
    await rollingUpdate(w.client, ns, 'agent', { partition: 1 });
    await onNodes([node.a, node.b, node.c]);
    await rollingUpdate(w.client, ns, 'agent', { partition: 0 });
    await settled(w.client, ns, 'agent');
  });

  test('D11: a preDelete-hooked pod waits in PreparingDelete until the hook label goes', async () => {
    const ns = await createNamespace(w.client, 'd11');
    const taint = { key: 'dedicated', value: 'x', effect: 'NoExecute' as const };
    try {
      await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { lifecycle: { preDelete: { labelsHandler: { 'example.io/hold': 'true' } } } }));
      await settled(w.client, ns, 'agent');
      const held = byNode(await livePods(w.client, ns, 'agent')).get(node.a)!;
      await w.client.patch(Pods, ns, held.metadata.name!, 'merge', { metadata: { labels: { 'example.io/hold': 'true' } } });
      await taintNode(w.client, node.a, taint);
      await eventually('PreparingDelete', async () => {
        const p = await w.client.get<Pod>(Pods, ns, held.metadata.name!);
        return p.metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete';
      });
      await holds('hooked pod is not deleted', async () => {
        const p = await w.client.get<Pod>(Pods, ns, held.metadata.name!);
        return p.metadata.deletionTimestamp ? 'deleted while hooked' : undefined;
      }, 1_500);
      await w.client.patch(Pods, ns, held.metadata.name!, 'merge', { metadata: { labels: { 'example.io/hold': null } } });
      await eventually('unhooked pod deleted', async () => !(await livePods(w.client, ns, 'agent')).some((p) => p.metadata.uid === held.metadata.uid));
      await settled(w.client, ns, 'agent', { desired: 3 });
    } finally {
      await taintNode(w.client, node.a, taint, true);
    }
  });

  test('D12: OnDelete changes nothing until a pod is deleted; a Failed pod is replaced with event FailedDaemonPod', async () => {
    const ns = await createNamespace(w.client, 'd12');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { type: 'OnDelete' } }));
    const v1 = await settled(w.client, ns, 'agent');
    await setImage(w.client, ns, 'agent', IMG2);
    const v2 = await settled(w.client, ns, 'agent', { updated: 0, notRevision: v1.status!.updateRevision });
    const uids = new Set((await livePods(w.client, ns, 'agent')).map((p) => p.metadata.uid));
    await holds('OnDelete leaves pods alone', async () => {
      const pods = await livePods(w.client, ns, 'agent');
      return pods.length === 4 && pods.every((p) => uids.has(p.metadata.uid)) ? undefined : 'pods changed';
    }, 2_000);
    const onC = byNode(await livePods(w.client, ns, 'agent')).get(node.c)!;
    await w.client.delete(Pods, ns, onC.metadata.name!);
    await settled(w.client, ns, 'agent', { updated: 1 });
    assert.equal(revisionOf(byNode(await livePods(w.client, ns, 'agent')).get(node.c)!), v2.status!.updateRevision);
    const onB = byNode(await livePods(w.client, ns, 'agent')).get(node.b)!;
    const fresh = await w.client.get<Pod>(Pods, ns, onB.metadata.name!);
    await w.client.updateStatus(Pods, { ...fresh, status: { ...fresh.status, phase: 'Failed' } });
    await settled(w.client, ns, 'agent', { updated: 2 });
    const replacement = byNode(await livePods(w.client, ns, 'agent')).get(node.b)!;
    assert.notEqual(replacement.metadata.uid, onB.metadata.uid);
    assert.equal(revisionOf(replacement), v2.status!.updateRevision);
    await eventually('FailedDaemonPod event', async () => {
      const events = (await w.client.list<{ metadata: object; reason?: string; message?: string }>(Events, { namespace: ns })).items;
      return events.some((e) => e.reason === 'FailedDaemonPod' && e.message?.includes(onB.metadata.name!) && e.message.includes(node.b));
    });
  });
});
