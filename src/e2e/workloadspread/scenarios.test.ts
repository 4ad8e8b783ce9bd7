/**
 * A.7 scenarios 5-9 and a CloneSet target (docs/design/workloadspread.md §10): validation through
 * the API server, adaptive rescheduling, StatefulSet ordinals, adoption of running pods, and the
 * v1alpha1/v1beta1 field mapping. Scenario 6 uses a 3 s threshold and an 8 s recovery (the controller's
 * recoverAfterMs option) in place of 10 s and 300 s, to keep the test short.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets, WorkloadSpreads } from '../../api/kruise/resource-types.js';
import { Deployments, Jobs, StatefulSets } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import {
  cloneSet, costOf, countBySubset, deployment, eventually, getSpread, livePods, ns, spread, startSpreadEnv, statefulSet, subsetCounts,
  subsetOf, WorkloadSpreadsV1alpha1, zoneTerm, type WorkloadEnv,
} from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startSpreadEnv({ spread: { recoverAfterMs: 8_000 } }); });
after(() => w.stop());

const target = (kind: string, name: string, apiVersion = 'apps/v1') => ({ targetRef: { apiVersion, kind, name } });

async function rejected(what: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(what, (err: unknown) => {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.code, 400, err.message);
    assert.ok(err.message.includes(message), `${err.message} should include ${message}`);
    return true;
  });
}

test('5. invalid WorkloadSpreads are rejected with 400 and upstream messages', async () => {
  const two = (a: unknown, b: unknown) => ({ subsets: [
    { name: 'za', requiredNodeSelectorTerm: zoneTerm('a'), ...(a !== undefined && { maxReplicas: a }) },
    { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b'), ...(b !== undefined && { maxReplicas: b }) },
  ] });
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Deployment', 'v1'), ...two(1, '50%') }, 'v1')), 'the maxReplicas type of all subsets must be the same');
  await w.client.create(WorkloadSpreadsV1alpha1, spread(target('Deployment', 'v2'), 'v2'));
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread(target('Deployment', 'v2'), 'v2b')), 'ws.spec.targetRef is in conflict with other WorkloadSpread v2');
  await rejected(w.client.patch(WorkloadSpreads, ns, 'v2', 'merge', { spec: { targetRef: { name: 'other' } } }), 'change TargetReference is not permitted for WorkloadSpread');
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Deployment', 'v3'), scheduleStrategy: { type: 'Fixed', adaptive: { rescheduleCriticalSeconds: 10 } } }, 'v3')),
    "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy");
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Deployment', 'v4'), ...two(undefined, 2), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10 } } }, 'v4')),
    'the last subset must be not specified when using adaptive scheduleStrategy');
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Deployment', 'v5'), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 400 } } }, 'v5')),
    'rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 295 is not permitted');
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('StatefulSet', 'v6'), ...two('50%', undefined) }, 'v6')), 'the maxReplicas type must be Int for StatefulSet');
  await rejected(w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Deployment', 'v7'), subsets: [{ name: 'za', requiredNodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'Bogus' }] } }] }, 'v7')),
    'not a valid selector operator');
});

test('6. adaptive: pods stuck in za are rescheduled into zb, za recovers later', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread({
    ...target('Deployment', 'ad'),
    subsets: [{ name: 'za', maxReplicas: 2, requiredNodeSelectorTerm: zoneTerm('x') }, { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') }],
    scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 3 } },
  }, 'ad'));
  await w.client.create(Deployments, deployment('ad', 4));
  await eventually('2 pending za pods', async () => (await livePods(w.client, 'ad')).filter((p) => subsetOf(p) === 'za').length === 2, 10_000);
  const running = await eventually('4 running pods in zb', async () => {
    const pods = await livePods(w.client, 'ad');
    return pods.length === 4 && pods.every((p) => subsetOf(p) === 'zb' && p.status?.phase === 'Running') ? pods : undefined;
  }, 30_000);
  assert.equal(running.length, 4);
  const za = (await getSpread(w.client, 'ad')).status!.subsetStatuses!.find((s) => s.name === 'za')!;
  assert.deepEqual(za.conditions?.map((c) => [c.type, c.status, c.reason]), [['Schedulable', 'False', 'PodUnschedulable']]);
  const zb = (await getSpread(w.client, 'ad')).status!.subsetStatuses!.find((s) => s.name === 'zb')!;
  assert.deepEqual(zb.conditions?.map((c) => [c.type, c.status, c.reason]), [['Schedulable', 'True', 'Sufficient']]);
  await eventually('za Schedulable again', async () => {
    const st = (await getSpread(w.client, 'ad')).status!.subsetStatuses!.find((s) => s.name === 'za')!;
    return st.conditions?.[0]?.status === 'True' && st.conditions[0].reason === 'Sufficient';
  }, 20_000);
  assert.deepEqual(countBySubset(await livePods(w.client, 'ad')), { zb: 4 }, 'running pods are not moved back');
});

test('7. StatefulSet: ordinals 0-1 in za, 2-3 in zb, no creatingPods', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread(target('StatefulSet', 'sts'), 'sts'));
  await w.client.create(StatefulSets, statefulSet('sts', 4));
  const pods = await eventually('4 sts pods', async () => {
    const list = await livePods(w.client, 'sts');
    return list.length === 4 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
  }, 40_000);
  assert.deepEqual(Object.fromEntries(pods.map((p) => [p.metadata.name, subsetOf(p)])), { 'sts-0': 'za', 'sts-1': 'za', 'sts-2': 'zb', 'sts-3': 'zb' });
  const ws = await getSpread(w.client, 'sts');
  assert.ok(!JSON.stringify(ws.status ?? {}).includes('creatingPods'));
  assert.ok(pods.every((p) => costOf(p) === undefined), 'no deletion cost for StatefulSets');
});

test('8. adoption: running pods in zone a get the za annotation in place', async () => {
  await w.client.create(Deployments, deployment('adopt', 2, { nodeSelector: { zone: 'a' } }));
  const before = await eventually('2 running pods', async () => {
    const list = await livePods(w.client, 'adopt');
    return list.length === 2 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
  }, 20_000);
  await w.client.create(WorkloadSpreadsV1alpha1, spread(target('Deployment', 'adopt'), 'adopt'));
  const after = await eventually('annotated', async () => {
    const list = await livePods(w.client, 'adopt');
    return list.every((p) => subsetOf(p) === 'za') ? list : undefined;
  }, 20_000);
  assert.deepEqual(after.map((p) => p.metadata.uid).sort(), before.map((p) => p.metadata.uid).sort());
  assert.ok(after.every((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) === 0));
  await eventually('za replicas 2', async () => (await subsetCounts(w.client, 'adopt')).za?.replicas === 2, 10_000);
});

test('9. v1alpha1 and v1beta1 views map the node selector fields', async () => {
  const alpha = await w.client.get<KObject & { spec: { subsets: Record<string, unknown>[] } }>(WorkloadSpreadsV1alpha1, ns, 'adopt');
  const beta = await w.client.get<KObject & { spec: { subsets: Record<string, unknown>[] } }>(WorkloadSpreads, ns, 'adopt');
  assert.deepEqual(beta.spec.subsets[0].requiredNodeSelector, alpha.spec.subsets[0].requiredNodeSelectorTerm);
  const written = await w.client.update(WorkloadSpreads, { ...beta, metadata: { ...beta.metadata, labels: { touched: 'yes' } } });
  const again = await w.client.get<typeof alpha>(WorkloadSpreadsV1alpha1, ns, 'adopt');
  assert.equal(written.metadata.labels?.touched, 'yes');
  assert.deepEqual(again.spec, alpha.spec);
});

test('CloneSet target: fill order and scale-in from the last subset', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread(target('CloneSet', 'cs', 'apps.kruise.io/v1alpha1'), 'cs'));
  await w.client.create(CloneSets, cloneSet('cs', 5));
  const pods = await eventually('5 pods with costs', async () => {
    const list = await livePods(w.client, 'cs');
    return list.length === 5 && list.every((p) => costOf(p)) ? list : undefined;
  }, 30_000);
  assert.deepEqual(countBySubset(pods), { za: 2, zb: 3 });
  await w.client.patch(CloneSets, ns, 'cs', 'merge', { spec: { replicas: 2 } });
  const left = await eventually('2 left', async () => {
    const list = await livePods(w.client, 'cs');
    return list.length === 2 ? list : undefined;
  }, 20_000);
  assert.deepEqual(countBySubset(left), { za: 2 });
});

test('percent maxReplicas with a targetFilter on a CloneSet, and a Job target', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread({
    ...target('CloneSet', 'pct', 'apps.kruise.io/v1alpha1'),
    targetFilter: { selector: { matchLabels: { app: 'pct' } } },
    subsets: [{ name: 'za', maxReplicas: '25%', requiredNodeSelectorTerm: zoneTerm('a') }, { name: 'zb', maxReplicas: '75%', requiredNodeSelectorTerm: zoneTerm('b') }],
  }, 'pct'));
  await w.client.create(CloneSets, cloneSet('pct', 4));
  const pods = await eventually('4 placed pods', async () => {
    const list = await livePods(w.client, 'pct');
    return list.length === 4 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
  }, 30_000);
  assert.deepEqual(countBySubset(pods), { za: 1, zb: 3 });
  await eventually('status 1/0 and 3/0', async () => {
    const c = await subsetCounts(w.client, 'pct');
    return c.za?.replicas === 1 && c.za.missingReplicas === 0 && c.zb?.replicas === 3 && c.zb.missingReplicas === 0;
  }, 10_000);

  await w.client.create(WorkloadSpreadsV1alpha1, spread({ ...target('Job', 'job', 'batch/v1'), subsets: [{ name: 'za', maxReplicas: 1, requiredNodeSelectorTerm: zoneTerm('a') }, { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') }] }, 'job'));
  await w.client.create(Jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job', namespace: ns }, spec: { parallelism: 2, completions: 2, template: { metadata: { labels: { app: 'job' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sleep', '3600'] }] } } } });
  const jobPods = await eventually('2 job pods', async () => {
    const list = await livePods(w.client, 'job');
    return list.length === 2 ? list : undefined;
  }, 20_000);
  assert.deepEqual(countBySubset(jobPods), { za: 1, zb: 1 });
});
