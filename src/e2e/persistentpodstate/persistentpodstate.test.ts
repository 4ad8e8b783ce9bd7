/**
 * F.5 acceptance scenarios of docs/design/persistentpodstate.md §7 on two nodes labelled zone=a and
 * zone=b: records, re-injection on recreation, retention on scale-in, auto-generation, rejections,
 * workload deletion and the version mapping.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { PersistentPodStates } from '../../api/kruise/resource-types.js';
import { Namespaces, Nodes, Pods, StatefulSets } from '../../api/resource-type.js';
import { setupPersistentPodStateController } from '../../controllers/persistentpodstate/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';

let w: WorkloadEnv;
const zones: Record<string, string> = {};
before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupPersistentPodStateController(m); } });
  const nodes = (await w.client.list(Nodes)).items;
  for (const [i, n] of nodes.entries()) {
    zones[n.metadata.name!] = i === 0 ? 'a' : 'b';
    await w.client.patch(Nodes, undefined, n.metadata.name!, 'merge', { metadata: { labels: { zone: zones[n.metadata.name!] } } });
  }
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pp1' } });
});
after(() => w.stop());

const PpsV1alpha1 = { ...PersistentPodStates, version: 'v1alpha1' };
type Pps = KObject & { spec: Record<string, unknown>; status?: { podStates?: Record<string, { nodeName?: string; nodeTopologyLabels?: Record<string, string> }> } };

const sts = (name: string, replicas: number, annotations?: Record<string, string>) => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: 'pp1', ...(annotations && { annotations }) },
  spec: {
    replicas, serviceName: name, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } },
  },
});
const pps = (name: string, target: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PersistentPodState', metadata: { name, namespace: 'pp1' },
  spec: {
    targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: target },
    requiredPersistentTopology: { nodeTopologyKeys: ['zone'] },
    preferredPersistentTopology: [{ weight: 100, preference: { nodeTopologyKeys: ['kubernetes.io/hostname'] } }],
    ...extra,
  },
});
const getPps = (name: string) => w.client.get<Pps>(PersistentPodStates, 'pp1', name);
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const readyPod = (name: string, uidNot?: string) => eventually(`${name} ready`, async () => {
  const p = await w.client.get<Pod>(Pods, 'pp1', name).catch(() => undefined);
  return p && ready(p) && !p.metadata.deletionTimestamp && p.metadata.uid !== uidNot ? p : undefined;
}, 30_000);

describe('PersistentPodState (F.5)', () => {
  test('records Ready pods, re-injects topology into a recreated pod, drops records on scale-in, empties on workload deletion', async () => {
    await w.client.create(StatefulSets, sts('db', 2));
    const [db0] = [await readyPod('db-0'), await readyPod('db-1')];
    await w.client.create(PpsV1alpha1, pps('db', 'db'));
    // 1
    const recorded = await eventually('both records', async () => { const p = await getPps('db'); return p.status?.podStates?.['db-0'] && p.status.podStates['db-1'] ? p : undefined; });
    const node0 = db0.spec.nodeName!;
    assert.deepEqual(recorded.status!.podStates!['db-0'], { nodeName: node0, nodeTopologyLabels: { zone: zones[node0], 'kubernetes.io/hostname': node0 } });
    // 7: the v1beta1 view names the keys `keys`
    assert.deepEqual((recorded.spec.requiredPersistentTopology as { keys: string[] }).keys, ['zone']);
    // 2
    await w.client.delete(Pods, 'pp1', 'db-0');
    const again = await readyPod('db-0', db0.metadata.uid);
    assert.equal(again.spec.nodeSelector?.zone, zones[node0]);
    assert.deepEqual(again.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      [{ weight: 100, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node0] }] } }]);
    assert.equal(again.metadata.annotations?.['kruise.io/injected-persistent-pod-state'], 'db');
    // 3
    await w.client.patch(StatefulSets, 'pp1', 'db', 'merge', { spec: { replicas: 1 } });
    await eventually('db-1 record dropped', async () => { const p = await getPps('db'); return !!p.status?.podStates?.['db-0'] && !p.status.podStates['db-1']; }, 30_000);
    // 6
    await w.client.delete(StatefulSets, 'pp1', 'db');
    await eventually('podStates empty', async () => Object.keys((await getPps('db')).status?.podStates ?? {}).length === 0, 30_000);
  });

  test('retention WhenDeleted keeps the record of a scaled-in pod (F.5 3)', async () => {
    await w.client.create(StatefulSets, sts('keep', 2));
    await readyPod('keep-1');
    await w.client.create(PpsV1alpha1, pps('keep', 'keep', { persistentPodStateRetentionPolicy: 'WhenDeleted' }));
    await eventually('keep-1 recorded', async () => !!(await getPps('keep')).status?.podStates?.['keep-1']);
    await w.client.patch(StatefulSets, 'pp1', 'keep', 'merge', { spec: { replicas: 1 } });
    await eventually('keep-1 gone', async () => (await w.client.get(Pods, 'pp1', 'keep-1').then(() => false, () => true)), 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.ok((await getPps('keep')).status?.podStates?.['keep-1'], 'keep-1 record kept');
  });

  test('auto-generation from StatefulSet annotations (F.5 4)', async () => {
    await w.client.create(StatefulSets, sts('web', 1, { 'kruise.io/auto-generate-persistent-pod-state': 'true', 'kruise.io/preferred-persistent-topology': 'kubernetes.io/hostname' }));
    const generated = await eventually('PPS web', () => getPps('web').catch(() => undefined));
    assert.deepEqual(generated.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['StatefulSet', 'web', true]]);
    assert.deepEqual(generated.spec.preferredPersistentTopology, [{ weight: 100, preference: { keys: ['kubernetes.io/hostname'] } }]);
    await w.client.patch(StatefulSets, 'pp1', 'web', 'merge', { metadata: { annotations: { 'kruise.io/auto-generate-persistent-pod-state': null } } });
    await eventually('PPS web deleted', async () => getPps('web').then(() => false, () => true));
  });

  test('rejections with 400 and upstream\'s messages; keys written via v1beta1 read back as nodeTopologyKeys (F.5 5, 7)', async () => {
    const refused = (re: RegExp) => (e: Error & { code?: number }) => e.code === 400 && re.test(e.message);
    await assert.rejects(w.client.create(PpsV1alpha1, { ...pps('none', 'x'), spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x' } } }),
      refused(/TopologyConstraint and TopologyPreference cannot be empty at the same time/));
    await assert.rejects(w.client.create(PpsV1alpha1, { ...pps('dep', 'x'), spec: { ...pps('dep', 'x').spec, targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' } } }),
      refused(/targetRef.Kind must be StatefulSet or in PPS_Watch_Custom_Workload_WhiteList/));
    await w.client.create(PersistentPodStates, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'PersistentPodState', metadata: { name: 'beta', namespace: 'pp1' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'other' }, requiredPersistentTopology: { keys: ['zone'] } },
    });
    const alpha = await w.client.get<Pps>(PpsV1alpha1, 'pp1', 'beta');
    assert.deepEqual(alpha.spec.requiredPersistentTopology, { nodeTopologyKeys: ['zone'] });
    await assert.rejects(w.client.create(PpsV1alpha1, pps('second', 'other')), refused(/targetRef is in conflict with other PersistentPodState beta/));
    await assert.rejects(w.client.patch(PersistentPodStates, 'pp1', 'beta', 'merge', { spec: { targetRef: { name: 'renamed' } } }), refused(/targetRef is immutable/));
  });
});
