/** ADS acceptance D3 (Standard rollout), D4/D5 (in place) and D6 (partition) of docs/design/advanced-daemonset.md §11. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { holds, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedDaemonSets, IMG2, IMG3, ads, allNodes, assertNoViolation, byNode, condition, createNamespace, getAds, isPodReady,
  livePods, node, nodeOf, patchAds, restartsOf, revisionOf, rollingUpdate, setImage, settled, startDaemonSetEnv, watchPods, type Pod,
} from './fixtures.js';

const uidsOf = (pods: Pod[]) => new Map(pods.map((p) => [p.metadata.name!, p.metadata.uid!]));

describe('ADS rollouts (D3 D6)', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startDaemonSetEnv(); });
  after(async () => { await w?.stop(); });

  test('D3: Standard rolling update replaces every pod with at most one node lacking a Ready pod', async () => {
    const ns = await createNamespace(w.client, 'd3');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { maxUnavailable: 1 } } }));
    const before = await settled(w.client, ns, 'agent');
    const oldNames = new Set((await livePods(w.client, ns, 'agent')).map((p) => p.metadata.name));
    let worst = 0;
    const watch = await watchPods(w.client, ns, 'agent', (live) => {
      const ready = new Set(live.filter(isPodReady).map(nodeOf));
      const missing = allNodes.filter((n) => !ready.has(n)).length;
      worst = Math.max(worst, missing);
      return missing > 1 ? `${missing} nodes without a Ready pod` : undefined;
    });
    await setImage(w.client, ns, 'agent', IMG2);
    const after = await settled(w.client, ns, 'agent', { notRevision: before.status!.updateRevision });
    watch.stop();
    assertNoViolation(watch);
    assert.equal(worst, 1, 'pods were replaced one node at a time');
    const pods = await livePods(w.client, ns, 'agent');
    assert.equal(pods.filter((p) => oldNames.has(p.metadata.name)).length, 0, 'every pod has a new name');
    assert.ok(pods.every((p) => revisionOf(p) === after.status!.updateRevision && p.spec.containers[0]!.image === IMG2));
    assert.equal(after.status!.updatedNumberScheduled, 4);
  });

  test('D4: InPlaceIfPossible updates images in place, then recreates for an env change', async () => {
    const ns = await createNamespace(w.client, 'd4');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 } } }));
    const v1 = await settled(w.client, ns, 'agent');
    const first = await livePods(w.client, ns, 'agent');
    for (const p of first) assert.ok(p.spec.readinessGates?.some((g) => g.conditionType === 'InPlaceUpdateReady'), `${p.metadata.name} has the gate`);
    const nodes = new Map(first.map((p) => [p.metadata.name!, nodeOf(p)]));
    await setImage(w.client, ns, 'agent', IMG2);
    const v2 = await settled(w.client, ns, 'agent', { notRevision: v1.status!.updateRevision });
    const second = await livePods(w.client, ns, 'agent');
    assert.deepEqual(uidsOf(second), uidsOf(first));
    for (const p of second) {
      assert.equal(nodeOf(p), nodes.get(p.metadata.name!));
      assert.equal(p.spec.containers[0]!.image, IMG2);
      assert.equal(restartsOf(p), 1);
      assert.equal(revisionOf(p), v2.status!.updateRevision);
      assert.equal(condition(p, 'InPlaceUpdateReady')?.status, 'True');
      assert.equal(p.metadata.labels?.['lifecycle.apps.kruise.io/state'], undefined, 'ADS writes no lifecycle label');
    }
    await patchAds(w.client, ns, 'agent', { template: { spec: { containers: [{ name: 'agent', image: IMG2, env: [{ name: 'A', value: 'b' }] }] } } });
    await settled(w.client, ns, 'agent', { notRevision: v2.status!.updateRevision });
    const third = await livePods(w.client, ns, 'agent');
    assert.equal(third.filter((p) => uidsOf(first).has(p.metadata.name!)).length, 0, 'an env change recreates every pod');
  });

  test('D5: switching Standard to InPlaceIfPossible recreates once, then updates in place', async () => {
    const ns = await createNamespace(w.client, 'd5');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } }));
    const v1 = await settled(w.client, ns, 'agent');
    const standard = uidsOf(await livePods(w.client, ns, 'agent'));
    await patchAds(w.client, ns, 'agent', {
      updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } },
      template: { spec: { containers: [{ name: 'agent', image: IMG2 }] } },
    });
    const v2 = await settled(w.client, ns, 'agent', { notRevision: v1.status!.updateRevision });
    const recreated = await livePods(w.client, ns, 'agent');
    assert.ok(recreated.every((p) => !standard.has(p.metadata.name!)), 'pods without the gate are recreated');
    assert.ok(recreated.every((p) => p.spec.readinessGates?.some((g) => g.conditionType === 'InPlaceUpdateReady')));
    await setImage(w.client, ns, 'agent', IMG3);
    await settled(w.client, ns, 'agent', { notRevision: v2.status!.updateRevision });
    const inPlace = await livePods(w.client, ns, 'agent');
    assert.deepEqual(uidsOf(inPlace), uidsOf(recreated));
    assert.ok(inPlace.every((p) => restartsOf(p) === 1 && p.spec.containers[0]!.image === IMG3));
  });

  test('D6: partition keeps the smallest node names on the old revision (int, percent, then 0)', async () => {
    const ns = await createNamespace(w.client, 'd6');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { maxUnavailable: 1, partition: 2 } } }));
    const v1 = await settled(w.client, ns, 'agent');
    await setImage(w.client, ns, 'agent', IMG2);
    const v2 = await settled(w.client, ns, 'agent', { updated: 2, notRevision: v1.status!.updateRevision });
    const check = async (updatedNodes: string[]) => {
      const pods = byNode(await livePods(w.client, ns, 'agent'));
      for (const n of allNodes) {
        const want = updatedNodes.includes(n) ? v2.status!.updateRevision : v1.status!.updateRevision;
        assert.equal(revisionOf(pods.get(n)!), want, `revision on ${n}`);
      }
    };
    await check([node.c, node.d]);
    await rollingUpdate(w.client, ns, 'agent', { partition: '50%' });
    await settled(w.client, ns, 'agent', { updated: 2 });
    await holds('50% of 4 keeps 2 nodes old', async () => {
      const ds = await getAds(w.client, ns, 'agent');
      return ds.status?.updatedNumberScheduled === 2 ? undefined : `updated ${ds.status?.updatedNumberScheduled}`;
    }, 1_500);
    await check([node.c, node.d]);
    await rollingUpdate(w.client, ns, 'agent', { partition: 0 });
    await settled(w.client, ns, 'agent', { updated: 4 });
    await check(allNodes);
    assert.equal((await livePods(w.client, ns, 'agent')).every((p) => p.spec.containers[0]!.image === IMG2), true);
  });
});
