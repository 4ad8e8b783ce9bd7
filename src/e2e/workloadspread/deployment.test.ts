/**
 * A.7 scenarios 1-4 and 10 (docs/design/workloadspread.md §10) on the embedded cluster: a
 * Deployment `web` under the WorkloadSpread `spread` (za max 2 in zone a, zb unbounded in zone b).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import type { WatchEvent } from '../../api/meta.js';
import { Deployments, Nodes, Pods } from '../../api/resource-type.js';
import {
  costOf, countBySubset, WorkloadSpreadsV1alpha1, deployment, eventually, livePods, ns, spread, startSpreadEnv, subsetCounts, subsetOf,
  type Pod, type WorkloadEnv, type WorkloadSpread,
} from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startSpreadEnv(); });
after(() => w.stop());

const zoneOfNode = async (pod: Pod) => {
  const node = (await w.client.get<Pod>(Pods, ns, pod.metadata.name!)).spec.nodeName!;
  return (await w.client.get(Nodes, undefined, node)).metadata.labels?.zone;
};

test('1. fill order: two pods in za with zone a affinity, two in zb; statuses and costs', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread());
  await w.client.create(Deployments, deployment('web', 4));
  const pods = await eventually('4 running pods with costs', async () => {
    const list = await livePods(w.client, 'web');
    return list.length === 4 && list.every((p) => p.status?.phase === 'Running' && costOf(p)) ? list : undefined;
  }, 30_000);
  assert.deepEqual(countBySubset(pods), { za: 2, zb: 2 });
  for (const pod of pods) {
    const zone = subsetOf(pod) === 'za' ? 'a' : 'b';
    assert.deepEqual(pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] }]);
    assert.equal(costOf(pod), zone === 'a' ? '200' : '100');
    assert.equal(await zoneOfNode(pod), zone);
  }
  await eventually('status za {2,0}, zb {2,-1}', async () => {
    const counts = await subsetCounts(w.client);
    return counts.za?.replicas === 2 && counts.za.missingReplicas === 0 && counts.zb?.replicas === 2 && counts.zb.missingReplicas === -1;
  });
});

test('2. scale-in removes the zb pods first', async () => {
  const za = (await livePods(w.client, 'web')).filter((p) => subsetOf(p) === 'za').map((p) => p.metadata.name).sort();
  await w.client.patch(Deployments, ns, 'web', 'merge', { spec: { replicas: 2 } });
  const left = await eventually('2 pods left', async () => {
    const list = await livePods(w.client, 'web');
    return list.length === 2 ? list : undefined;
  }, 20_000);
  assert.deepEqual(left.map((p) => p.metadata.name).sort(), za);
  await w.client.patch(Deployments, ns, 'web', 'merge', { spec: { replicas: 4 } });
  await eventually('back to za 2, zb 2', async () => {
    const list = await livePods(w.client, 'web');
    return list.length === 4 && countBySubset(list).zb === 2;
  }, 20_000);
});

test('3. over max: one za pod costs -100 and goes first on scale-in', async () => {
  await w.client.patch(WorkloadSpreads, ns, 'spread', 'json', [{ op: 'replace', path: '/spec/subsets/0/maxReplicas', value: 1 }]);
  const za = await eventually('za costs -100 and 200', async () => {
    const list = (await livePods(w.client, 'web')).filter((p) => subsetOf(p) === 'za');
    const costs = list.map(costOf).sort();
    return costs.join(',') === '-100,200' ? list : undefined;
  }, 20_000);
  const victim = za.find((p) => costOf(p) === '-100')!.metadata.name;
  await w.client.patch(Deployments, ns, 'web', 'merge', { spec: { replicas: 3 } });
  await eventually('the -100 pod removed', async () => {
    const names = (await livePods(w.client, 'web')).map((p) => p.metadata.name);
    return names.length === 3 && !names.includes(victim);
  }, 20_000);
});

test('4. patch injection: a replacement za pod carries tier=za', async () => {
  await w.client.patch(WorkloadSpreads, ns, 'spread', 'json', [
    { op: 'replace', path: '/spec/subsets/0/maxReplicas', value: 2 },
    { op: 'add', path: '/spec/subsets/0/patch', value: { metadata: { labels: { tier: 'za' } } } },
  ]);
  await w.client.patch(Deployments, ns, 'web', 'merge', { spec: { replicas: 4 } });
  await eventually('4 pods', async () => (await livePods(w.client, 'web')).length === 4, 20_000);
  const before = (await livePods(w.client, 'web')).filter((p) => subsetOf(p) === 'za' && !p.metadata.labels?.tier);
  assert.ok(before.length > 0, 'a za pod without the label exists');
  await w.client.delete(Pods, ns, before[0].metadata.name!);
  const replacement = await eventually('a new za pod with tier=za', async () =>
    (await livePods(w.client, 'web')).find((p) => subsetOf(p) === 'za' && p.metadata.labels?.tier === 'za'), 20_000);
  assert.match(replacement.metadata.annotations!['apps.kruise.io/matched-workloadspread'], /^\{"name":"spread","subset":"za"/);
});

test('10. deletion accounting: the webhook records a deleted za pod at once, the controller clears it', async () => {
  await eventually('za full', async () => (await subsetCounts(w.client)).za?.missingReplicas === 0, 20_000);
  const victim = (await livePods(w.client, 'web')).find((p) => subsetOf(p) === 'za')!;
  const seen: WorkloadSpread[] = [];
  const current = await w.client.get<WorkloadSpread>(WorkloadSpreads, ns, 'spread');
  const handle = w.client.watch<WorkloadSpread>(WorkloadSpreads, { namespace: ns, resourceVersion: current.metadata.resourceVersion }, {
    onEvent: (e: WatchEvent<WorkloadSpread>) => { if (e.type === 'MODIFIED') seen.push(e.object); },
    onClose: () => undefined,
  });
  try {
    await w.client.delete(Pods, ns, victim.metadata.name!);
    const name = victim.metadata.name!;
    const recorded = await eventually('deletingPods entry', async () => seen.find((ws) => Object.values(ws.status?.versionedSubsetStatuses ?? {})
      .some((list) => list.some((s) => s.name === 'za' && s.deletingPods?.[name]))));
    const za = Object.values(recorded.status!.versionedSubsetStatuses!).flat().find((s) => s.name === 'za' && s.deletingPods?.[name])!;
    assert.ok(za.missingReplicas >= 1, `missingReplicas went up: ${za.missingReplicas}`);
    await eventually('entry gone', async () => {
      const ws = await w.client.get<WorkloadSpread>(WorkloadSpreads, ns, 'spread');
      return !JSON.stringify(ws.status).includes(name);
    }, 20_000);
  } finally {
    handle.stop();
  }
});
