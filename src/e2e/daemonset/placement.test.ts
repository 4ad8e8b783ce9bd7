/** ADS acceptance D1 (basic placement), D2 (node eligibility) and D13 (validation) of docs/design/advanced-daemonset.md §11. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { holds, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedDaemonSets, ads, createNamespace, eventually, getAds, labelNode, livePods, node, nodeOf, revisionNames, revisionOf,
  patchAds, settled, startDaemonSetEnv, taintNode,
} from './fixtures.js';

describe('ADS placement and admission (D1 D2 D13)', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startDaemonSetEnv(); });
  after(async () => { await w?.stop(); });

  test('D1: one pod per node, pinned by metadata.name affinity, default tolerations, bare hash, status and defaults', async () => {
    const ns = await createNamespace(w.client, 'd1');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent'));
    const ds = await settled(w.client, ns, 'agent');
    const s = ds.status!;
    assert.match(s.updateRevision ?? '', /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.deepEqual({ ...s, updateRevision: undefined }, {
      currentNumberScheduled: 4, numberMisscheduled: 0, desiredNumberScheduled: 4, numberReady: 4, updatedNumberScheduled: 4,
      numberAvailable: 4, numberUnavailable: 0, observedGeneration: ds.metadata.generation, updateRevision: undefined,
    });
    assert.deepEqual(await revisionNames(w.client, ns, 'agent'), [`agent-${s.updateRevision}`]);
    const pods = await livePods(w.client, ns, 'agent');
    assert.deepEqual(pods.map(nodeOf).sort(), Object.values(node));
    for (const pod of pods) {
      assert.match(pod.metadata.name!, /^agent-[a-z0-9]{5}$/);
      assert.equal(revisionOf(pod), s.updateRevision);
      const terms = (pod.spec.affinity as { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: unknown } }).nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
      assert.deepEqual(terms, { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeOf(pod)] }] }] });
      const tolerations = (pod.spec.tolerations as { key: string; effect: string; operator: string }[]).map((t) => `${t.key}:${t.operator}:${t.effect}`);
      for (const want of ['node.kubernetes.io/not-ready:Exists:NoExecute', 'node.kubernetes.io/unreachable:Exists:NoExecute',
        'node.kubernetes.io/disk-pressure:Exists:NoSchedule', 'node.kubernetes.io/memory-pressure:Exists:NoSchedule',
        'node.kubernetes.io/pid-pressure:Exists:NoSchedule', 'node.kubernetes.io/unschedulable:Exists:NoSchedule']) {
        assert.ok(tolerations.includes(want), `${pod.metadata.name} lacks toleration ${want}`);
      }
      assert.ok(!(pod.spec.readinessGates ?? []).some((g) => g.conditionType === 'InPlaceUpdateReady'), 'Standard pods carry no InPlaceUpdateReady gate');
      assert.deepEqual(pod.metadata.ownerReferences?.map((r) => [r.apiVersion, r.kind, r.name, r.controller]), [['apps.kruise.io/v1beta1', 'DaemonSet', 'agent', true]]);
    }
    const spec = (await getAds(w.client, ns, 'agent')).spec!;
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(spec.burstReplicas, 250);
    assert.equal(spec.revisionHistoryLimit, 10);
    await holds('one pod per node', async () => {
      const n = (await livePods(w.client, ns, 'agent')).length;
      return n === 4 ? undefined : `${n} live pods`;
    }, 1_000);
  });

  test('D2: nodeSelector, labels added and removed, NoExecute and NoSchedule taints', async () => {
    const ns = await createNamespace(w.client, 'd2');
    const dedicated = (effect: 'NoExecute' | 'NoSchedule') => ({ key: 'dedicated', value: 'x', effect });
    const onNodes = (want: string[]) => eventually(`pods exactly on ${want.join(',')}`, async () => {
      const pods = await livePods(w.client, ns, 'agent');
      const ds = await getAds(w.client, ns, 'agent');
      return JSON.stringify(pods.map(nodeOf).sort()) === JSON.stringify(want) && pods.every((p) => p.status?.phase === 'Running')
        && ds.status?.desiredNumberScheduled === want.length && ds.status.observedGeneration === ds.metadata.generation ? pods : undefined;
    }, 30_000);
    try {
      await labelNode(w.client, node.a, { role: 'edge' });
      await labelNode(w.client, node.b, { role: 'edge' });
      await w.client.create(AdvancedDaemonSets, ads(ns, 'agent', {}, { nodeSelector: { role: 'edge' } }));
      await onNodes([node.a, node.b]);
      await labelNode(w.client, node.c, { role: 'edge' });
      await onNodes([node.a, node.b, node.c]);
      await labelNode(w.client, node.a, { role: null });
      await onNodes([node.b, node.c]);
      await taintNode(w.client, node.b, dedicated('NoExecute'));
      await onNodes([node.c]);
      await taintNode(w.client, node.c, dedicated('NoSchedule'));
      const ds = await eventually('node-c no longer desired, its pod kept', async () => {
        const d = await getAds(w.client, ns, 'agent');
        return d.status?.desiredNumberScheduled === 0 && d.status.numberMisscheduled === 1 ? d : undefined;
      });
      assert.equal(ds.status?.currentNumberScheduled, 0);
      const [kept] = await livePods(w.client, ns, 'agent');
      assert.equal(nodeOf(kept!), node.c);
      await holds('pod on NoSchedule node keeps running', async () => {
        const pods = await livePods(w.client, ns, 'agent');
        return pods.length === 1 && pods[0]!.metadata.uid === kept!.metadata.uid ? undefined : `pods: ${pods.map((p) => p.metadata.name).join(',')}`;
      }, 1_500);
      await w.client.delete(Pods, ns, kept!.metadata.name!);
      await eventually('deleted pod is gone', async () => (await livePods(w.client, ns, 'agent')).length === 0);
      await holds('no replacement on a NoSchedule node', async () => {
        const n = (await livePods(w.client, ns, 'agent')).length;
        return n === 0 ? undefined : `${n} pods`;
      }, 2_000);
    } finally {
      await labelNode(w.client, node.a, { role: null });
      await labelNode(w.client, node.b, { role: null });
      await labelNode(w.client, node.c, { role: null });
      await taintNode(w.client, node.b, dedicated('NoExecute'), true);
      await taintNode(w.client, node.c, dedicated('NoSchedule'), true);
    }
  });

  test('D13: invalid strategies and selector updates are denied with their field paths; v1alpha1 Surging and progressive-create-pod convert', async () => {
    const ns = await createNamespace(w.client, 'd13');
    const denied = async (what: string, write: () => Promise<unknown>, path: string) => {
      await assert.rejects(write, (e: Error) => {
        assert.ok(e.message.includes('denied the request') && e.message.includes(path), `${what}: ${e.message}`);
        return true;
      }, what);
    };
    const ru = (rollingUpdate: Record<string, unknown>) => ads(ns, 'bad', { updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
    const create = (obj: unknown) => () => w.client.create(AdvancedDaemonSets, obj as never);
    await denied('unavailable 1 + surge 1', create(ru({ maxUnavailable: 1, maxSurge: 1 })), 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero');
    await denied('both zero', create(ru({ maxUnavailable: 0, maxSurge: 0 })), 'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0');
    await denied('in place with surge', create(ru({ rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1, maxUnavailable: 0 })),
      'spec.updateStrategy.rollingUpdate.maxSurge: Required value: must be 0 for InPlaceIfPossible type');
    await denied('120%', create(ru({ maxUnavailable: '120%' })), 'spec.updateStrategy.rollingUpdate.maxUnavailable');
    await denied('inPlaceUpdate hook', create(ads(ns, 'bad', { lifecycle: { inPlaceUpdate: { labelsHandler: { a: 'b' } } } })),
      'spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet');
    await w.client.create(AdvancedDaemonSets, ads(ns, 'agent'));
    await denied('selector update', () => patchAds(w.client, ns, 'agent', { selector: { matchLabels: { app: 'agent', x: 'y' } } }), 'spec: Forbidden: updates to daemonset spec');
    const v1alpha1 = { ...AdvancedDaemonSets, version: 'v1alpha1' };
    const old = ads(ns, 'surging', { updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging' } } });
    await w.client.create(v1alpha1, { ...old, apiVersion: 'apps.kruise.io/v1alpha1', metadata: { ...old.metadata, annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } } });
    const back = await getAds(w.client, ns, 'surging');
    assert.deepEqual(back.spec?.updateStrategy?.rollingUpdate, { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 });
    assert.equal(back.spec?.scaleStrategy?.partitionedScaling, true);
  });
});
