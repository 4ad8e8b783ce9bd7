/**
 * B.7 scenario 5 across three subsets and scenario 7 (docs/design/uniteddeployment.md §7): a
 * StatefulSet template rolled through an image change with manual partitions per subset, then
 * released; adaptive scheduling moving replicas out of a zone no node is in. Scenario 7 uses a
 * 3 s threshold and an 8 s unschedulable duration in place of 10 s and 60 s.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedStatefulSets, CloneSets, UnitedDeployments } from '../../api/kruise/resource-types.js';
import type { UnitedDeploymentV1alpha1 } from '../../api/kruise/workloads/united-deployment.js';
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { Deployments, Pods, StatefulSets } from '../../api/resource-type.js';
import { demo, eventually, getUd, ns, podTemplate, startUdEnv, subsetReplicas, UnitedDeploymentsV1alpha1, zoneTerm, type WorkloadEnv } from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startUdEnv(); });
after(() => w.stop());

const stsTemplate = (image: string) => ({
  statefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, serviceName: 'demo', template: podTemplate(image) } },
});

async function imagesBySubset(): Promise<Record<string, string[]>> {
  const pods = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=demo' })).items.filter((p) => !p.metadata.deletionTimestamp);
  const out: Record<string, string[]> = {};
  for (const p of pods.sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!))) {
    (out[p.metadata.labels!['apps.kruise.io/subset-name']] ??= []).push(p.spec.containers[0].image!);
  }
  return out;
}

const allReady = async (n: number) => {
  const ud = await getUd(w.client, 'roll');
  return ud.status?.readyReplicas === n && ud.status.replicas === n ? ud : undefined;
};

test('5. rollout across three subsets held by manual partitions, then released', async () => {
  await w.client.create(UnitedDeploymentsV1alpha1, demo({ replicas: 6, template: stsTemplate('busybox:1.36') }, 'roll'));
  const first = await eventually('6 ready', () => allReady(6), 60_000);
  const oldRevision = first.status!.currentRevision;
  await w.client.patch(UnitedDeployments, ns, 'roll', 'merge', { spec: { updateStrategy: { manualUpdate: { partitions: { a: 2, b: 1 } } } } });
  await w.client.patch(UnitedDeployments, ns, 'roll', 'merge', { spec: { template: stsTemplate('busybox:1.37') } });
  const images = await eventually('b and c rolled as far as their partitions allow', async () => {
    const got = await imagesBySubset();
    const ud = await allReady(6);
    return ud?.status?.updatedReplicas === 3 && got.c?.every((i) => i === 'busybox:1.37') && got.b?.filter((i) => i === 'busybox:1.37').length === 1 ? got : undefined;
  }, 60_000);
  assert.deepEqual(images.a, ['busybox:1.36', 'busybox:1.36'], 'subset a keeps its pods');
  assert.deepEqual(images.b, ['busybox:1.36', 'busybox:1.37'], 'subset b updates the ordinals at or above its partition');
  const sts = (await w.client.list<KObject & { spec: { updateStrategy: { rollingUpdate?: { partition?: number } } } }>(StatefulSets, { namespace: ns })).items;
  assert.deepEqual(Object.fromEntries(sts.map((s) => [s.metadata.labels!['apps.kruise.io/subset-name'], s.spec.updateStrategy.rollingUpdate?.partition])), { a: 2, b: 1, c: 0 });
  const ud = await getUd(w.client, 'roll');
  assert.equal(ud.status!.currentRevision, oldRevision, 'current revision stays while updating');
  assert.notEqual(ud.status!.updatedRevision, oldRevision);
  assert.equal(ud.status!.updatedReplicas, 3);
  assert.deepEqual(ud.status!.conditions!.find((c) => c.type === 'UnitedDeploymentUpdated')?.reason, 'UnitedDeploymentRevisionUpdating');
  const alpha = await w.client.get<UnitedDeploymentV1alpha1>(UnitedDeploymentsV1alpha1, ns, 'roll');
  assert.deepEqual(alpha.status!.updateStatus, { updatedRevision: ud.status!.updatedRevision, currentPartitions: { a: 2, b: 1, c: 0 } });

  await w.client.patch(UnitedDeployments, ns, 'roll', 'json', [{ op: 'replace', path: '/spec/updateStrategy/manualUpdate/partitions', value: {} }]);
  const done = await eventually('all updated, current revision caught up', async () => {
    const u = await allReady(6);
    return u && u.status!.updatedReadyReplicas === 6 && u.status!.currentRevision === u.status!.updatedRevision ? u : undefined;
  }, 90_000);
  assert.deepEqual(Object.values(await imagesBySubset()).flat(), Array(6).fill('busybox:1.37'));
  assert.equal(done.status!.conditions!.find((c) => c.type === 'UnitedDeploymentUpdated')?.status, 'True');
});

test('7. adaptive: a zone without nodes gives its replicas to the next subset, for good', async () => {
  await w.client.create(UnitedDeploymentsV1alpha1, demo({
    replicas: 2,
    topology: {
      subsets: [{ name: 'a', nodeSelectorTerm: zoneTerm('x'), maxReplicas: 2 }, { name: 'b', nodeSelectorTerm: zoneTerm('b') }],
      scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 3, unschedulableDuration: 8 } },
    },
  }, 'adapt'));
  await eventually('a starts with 2', async () => (await subsetReplicas(w.client, CloneSets, 'adapt')).a === 2, 10_000);
  const moved = await eventually('a=0, b=2, a unschedulable', async () => {
    const r = await subsetReplicas(w.client, CloneSets, 'adapt');
    const ud = await getUd(w.client, 'adapt');
    const a = ud.status?.subsetStatuses?.find((s) => s.name === 'a');
    return r.a === 0 && r.b === 2 && a?.conditions?.[0]?.status === 'False' ? ud : undefined;
  }, 20_000);
  assert.equal(moved.status!.subsetStatuses!.find((s) => s.name === 'a')!.conditions![0].reason, 'reschedule');
  await eventually('b has 2 ready', async () => (await getUd(w.client, 'adapt')).status?.readyReplicas === 2, 20_000);
  const recovered = await eventually('a schedulable again', async () => {
    const ud = await getUd(w.client, 'adapt');
    return ud.status?.subsetStatuses?.find((s) => s.name === 'a')?.conditions?.[0]?.status === 'True' ? ud : undefined;
  }, 20_000);
  assert.equal(recovered.status!.subsetStatuses!.find((s) => s.name === 'a')!.conditions![0].reason, 'recover');
  assert.deepEqual(await subsetReplicas(w.client, CloneSets, 'adapt'), { a: 0, b: 2 }, 'b keeps its ready pods');
});

const labelled = (app: string, template: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name: app, namespace: ns },
  spec: {
    replicas: 4, selector: { matchLabels: { app } }, template,
    topology: { subsets: [{ name: 'a', nodeSelectorTerm: zoneTerm('a'), patch: { metadata: { labels: { tier: 'gold' } } } }, { name: 'b', nodeSelectorTerm: zoneTerm('b') }] },
    ...spec,
  },
});
const podSpec = { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] };

test('Deployment template with a subset patch; Advanced StatefulSet template with a partition', async () => {
  await w.client.create(UnitedDeploymentsV1alpha1, labelled('dep', { deploymentTemplate: { metadata: { labels: { app: 'dep' } }, spec: { selector: { matchLabels: { app: 'dep' } }, template: { metadata: { labels: { app: 'dep' } }, spec: podSpec } } } }));
  const pods = await eventually('4 dep pods ready', async () => {
    const list = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=dep' })).items.filter((p) => !p.metadata.deletionTimestamp);
    const ud = await getUd(w.client, 'dep');
    return list.length === 4 && ud.status?.readyReplicas === 4 ? list : undefined;
  }, 40_000);
  for (const p of pods) assert.equal(p.metadata.labels?.tier, p.metadata.labels!['apps.kruise.io/subset-name'] === 'a' ? 'gold' : undefined);
  const deps = (await w.client.list<KObject>(Deployments, { namespace: ns })).items;
  assert.deepEqual(deps.map((d) => d.metadata.annotations?.['apps.kruise.io/subset-patch']).sort(), ['', '{"metadata":{"labels":{"tier":"gold"}}}']);

  await w.client.create(UnitedDeploymentsV1alpha1, labelled('asts', {
    advancedStatefulSetTemplate: { metadata: { labels: { app: 'asts' } }, spec: { selector: { matchLabels: { app: 'asts' } }, template: { metadata: { labels: { app: 'asts' } }, spec: podSpec } } },
  }, { updateStrategy: { manualUpdate: { partitions: { a: 1 } } } }));
  const sets = await eventually('2 ASTS with 2 replicas each, ready', async () => {
    const list = (await w.client.list<KObject & { spec: { replicas: number; updateStrategy?: { rollingUpdate?: { partition?: number } } } }>(AdvancedStatefulSets, { namespace: ns })).items;
    const ud = await getUd(w.client, 'asts');
    return list.length === 2 && ud.status?.readyReplicas === 4 ? list : undefined;
  }, 60_000);
  assert.deepEqual(Object.fromEntries(sets.map((s) => [s.metadata.labels!['apps.kruise.io/subset-name'], [s.spec.replicas, s.spec.updateStrategy?.rollingUpdate?.partition]])), { a: [2, 1], b: [2, 0] });
});
