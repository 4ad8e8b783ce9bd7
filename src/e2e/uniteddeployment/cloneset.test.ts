/**
 * B.7 scenarios 1-4, 6 and 8 (docs/design/uniteddeployment.md §7) with a CloneSet template:
 * even split, specified replicas, min/max with a subset dropped, rejections, the scale
 * subresource, and garbage collection on deletion.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets, UnitedDeployments } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { StatusError } from '../../machinery/errors.js';
import { demo, eventually, getUd, ns, podTemplate, startUdEnv, subsetReplicas, UnitedDeploymentsV1alpha1, zoneTerm, type WorkloadEnv } from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startUdEnv(); });
after(() => w.stop());

const settle = (want: Record<string, number>) => eventually(`subsets ${JSON.stringify(want)}`, async () => {
  const got = await subsetReplicas(w.client, CloneSets);
  return JSON.stringify(Object.entries(got).sort()) === JSON.stringify(Object.entries(want).sort()) ? got : undefined;
}, 20_000);

test('1. even split: a=1, b=2, c=2, zones required, Manual defaulted, status.replicas 5', async () => {
  await w.client.create(UnitedDeploymentsV1alpha1, demo());
  await settle({ a: 1, b: 2, c: 2 });
  const sets = (await w.client.list<KObject & { spec: { template: { spec: { affinity: unknown } } } }>(CloneSets, { namespace: ns })).items;
  for (const cs of sets) {
    const subset = cs.metadata.labels!['apps.kruise.io/subset-name'];
    assert.ok(cs.metadata.name!.startsWith(`demo-${subset}-`), cs.metadata.name);
    assert.deepEqual(cs.spec.template.spec.affinity, { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zoneTerm(subset)] } } });
  }
  const ud = await eventually('5 replicas', async () => {
    const u = await getUd(w.client);
    return u.status?.replicas === 5 && u.status.readyReplicas === 5 ? u : undefined;
  }, 30_000);
  assert.equal(ud.spec!.updateStrategy?.type, 'Manual');
  assert.equal(ud.status!.labelSelector, 'app=demo');
  assert.deepEqual(ud.status!.subsetStatuses!.map((s) => [s.name, s.replicas]), [['a', 1], ['b', 2], ['c', 2]]);
  const pods = (await w.client.list(Pods, { namespace: ns, labelSelector: 'app=demo' })).items;
  const zones = new Set(await Promise.all(pods.map(async (p) => (await w.client.get(Pods, ns, p.metadata.name!)) as KObject & { spec: { nodeName: string } }))
    .then((list) => list.map((p) => p.spec.nodeName)));
  assert.equal(zones.size, 3, 'pods spread over the three zone nodes');
});

test('2. specified: a=1, b=50% of 6, c gets the rest', async () => {
  const topology = { subsets: [{ name: 'a', nodeSelectorTerm: zoneTerm('a'), replicas: 1 }, { name: 'b', nodeSelectorTerm: zoneTerm('b'), replicas: '50%' }, { name: 'c', nodeSelectorTerm: zoneTerm('c') }] };
  await w.client.patch(UnitedDeployments, ns, 'demo', 'merge', { spec: { replicas: 6, topology } });
  await settle({ a: 1, b: 3, c: 2 });
});

test('3. min/max: a{2..4}, b{min 2}, c dropped, total 5 → a=3, b=2 and c deleted', async () => {
  const topology = { subsets: [{ name: 'a', nodeSelectorTerm: zoneTerm('a'), minReplicas: 2, maxReplicas: 4 }, { name: 'b', nodeSelectorTerm: zoneTerm('b'), minReplicas: 2 }] };
  await w.client.patch(UnitedDeployments, ns, 'demo', 'merge', { spec: { replicas: 5, topology } });
  await settle({ a: 3, b: 2 });
});

async function rejected(what: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(what, (err: unknown) => {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.code, 422, err.message);
    assert.ok(err.message.includes(message), `${err.message} should include ${message}`);
    return true;
  });
}

test('4. rejections with 422', async () => {
  const subsets = (extra: Record<string, unknown>[]) => ({ topology: { subsets: extra.map((e, i) => ({ name: 'ab'[i], nodeSelectorTerm: zoneTerm('ab'[i]), ...e })) } });
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo(subsets([{ replicas: 4 }, { replicas: 4 }]), 'r1')), 'sum of indicated subset replicas 8 should not be greater than UnitedDeployment replicas 5');
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo(subsets([{ replicas: 1 }, { maxReplicas: 2 }]), 'r2')), 'subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment');
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo(subsets([{ minReplicas: 1, maxReplicas: 2 }, { minReplicas: 1, maxReplicas: 2 }]), 'r3')), 'at least one subset.maxReplicas must be empty');
  const ud = await getUd(w.client);
  const changed = structuredClone(ud.spec!.topology!);
  changed.subsets![0].nodeSelectorTerm = zoneTerm('c');
  await rejected(w.client.update(UnitedDeployments, { ...ud, spec: { ...ud.spec!, topology: changed } }), 'spec.topology.subsets[0].nodeSelectorTerm: Forbidden: may not be changed in an update');
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo(subsets([{ nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'Bogus', values: ['a'] }] } }]), 'r4')),
    'spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator');
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo({ updateStrategy: { type: 'Manual', manualUpdate: { partitions: { z: 1 } } } }, 'r5')), 'spec.updateStrategy.manualUpdate.partitions: Invalid value: {"z":1}: subset z does not exist');
  await rejected(w.client.create(UnitedDeploymentsV1alpha1, demo({ template: { statefulSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'demo' } }, template: podTemplate() } } } }, 'r6')), 'spec.template.statefulSetTemplate.spec.replicas: Invalid value: 1: replicas in statefulSetTemplate will not be used');
});

test('6. scale subresource: kubectl-style scale to 3 shrinks the subsets', async () => {
  const scale = await w.client.get(UnitedDeployments, ns, 'demo').then(() => w.client.patch(UnitedDeployments, ns, 'demo', 'merge', { spec: { replicas: 3 } }, { subresource: 'scale' }));
  assert.ok(scale);
  await settle({ a: 2, b: 1 });
  const ud = await getUd(w.client);
  assert.equal(ud.spec!.replicas, 3);
  await eventually('status.replicas 3', async () => (await getUd(w.client)).status?.replicas === 3, 20_000);
});

test('8. deletion garbage-collects the subset workloads and their pods', async () => {
  await w.client.delete(UnitedDeployments, ns, 'demo');
  await eventually('no CloneSets and no pods', async () => {
    const sets = (await w.client.list(CloneSets, { namespace: ns })).items;
    const pods = (await w.client.list(Pods, { namespace: ns, labelSelector: 'app=demo' })).items;
    return sets.length === 0 && pods.length === 0;
  }, 30_000);
});
