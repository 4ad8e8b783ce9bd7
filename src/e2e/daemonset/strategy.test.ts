/** ADS acceptance D7 (rollout node selector) and D8 (paused) of docs/design/advanced-daemonset.md §11. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { holds, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedDaemonSets, IMG2, ads, allNodes, byNode, createNamespace, getAds, labelNode, livePods, node, revisionOf, rollingUpdate,
  setImage, settled, startDaemonSetEnv, taintNode, type Pod,
} from './fixtures.js';

describe('ADS update strategy knobs (D7 D8)', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startDaemonSetEnv(); });
  after(async () => { await w?.stop(); });

  test('D7: rollingUpdate.selector limits the rollout to matching nodes until removed', async () => {
    const ns = await createNamespace(w.client, 'd7');
    try {
      await labelNode(w.client, node.b, { canary: 'true' });
      await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { maxUnavailable: 1, selector: { matchLabels: { canary: 'true' } } } } }));
      const v1 = await settled(w.client, ns, 'agent');
      await setImage(w.client, ns, 'agent', IMG2);
      const v2 = await settled(w.client, ns, 'agent', { updated: 1, notRevision: v1.status!.updateRevision });
      const onlyB = async () => {
        const pods = byNode(await livePods(w.client, ns, 'agent'));
        const wrong = allNodes.filter((n) => (revisionOf(pods.get(n)!) === v2.status!.updateRevision) !== (n === node.b));
        return wrong.length ? `unexpected revision on ${wrong.join(',')}` : undefined;
      };
      assert.equal(await onlyB(), undefined);
      await holds('only node-b is updated', onlyB, 10_000);
      await rollingUpdate(w.client, ns, 'agent', { selector: null });
      await settled(w.client, ns, 'agent', { updated: 4 });
    } finally {
      await labelNode(w.client, node.b, { canary: null });
    }
  });

  test('D8: paused stops the rollout but not creation; unpausing finishes it', async () => {
    const ns = await createNamespace(w.client, 'd8');
    const taint = { key: 'dedicated', value: 'x', effect: 'NoExecute' as const };
    try {
      await taintNode(w.client, node.d, taint);
      await w.client.create(AdvancedDaemonSets, ads(ns, 'agent'));
      const v1 = await settled(w.client, ns, 'agent', { desired: 3 });
      await rollingUpdate(w.client, ns, 'agent', { paused: true });
      await setImage(w.client, ns, 'agent', IMG2);
      const v2 = await settled(w.client, ns, 'agent', { desired: 3, updated: 0, notRevision: v1.status!.updateRevision });
      const fingerprint = (p: Pod) => `${p.metadata.uid} ${revisionOf(p)} ${p.spec.containers[0]!.image}`;
      const before = new Set((await livePods(w.client, ns, 'agent')).map(fingerprint));
      await holds('no pod changes while paused', async () => {
        const pods = await livePods(w.client, ns, 'agent');
        const ds = await getAds(w.client, ns, 'agent');
        if (ds.status?.updatedNumberScheduled !== 0) return `updated ${ds.status?.updatedNumberScheduled}`;
        return pods.length === 3 && pods.every((p) => before.has(fingerprint(p))) ? undefined : 'pods changed';
      }, 10_000);
      await taintNode(w.client, node.d, taint, true);
      await settled(w.client, ns, 'agent', { desired: 4, updated: 1 });
      const onD = byNode(await livePods(w.client, ns, 'agent')).get(node.d)!;
      assert.equal(revisionOf(onD), v2.status!.updateRevision, 'a pod created while paused uses the current template');
      await rollingUpdate(w.client, ns, 'agent', { paused: false });
      await settled(w.client, ns, 'agent', { updated: 4 });
    } finally {
      await taintNode(w.client, node.d, taint, true);
    }
  });
});
