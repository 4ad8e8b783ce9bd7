/**
 * Elastic spread over node capacity (docs/design/workloadspread.md §8, G.14 of the behaviour spec):
 * nodes hold 3 pods each; za (zone a, max 5) fills its node, the pods that do not fit stay Pending
 * with PodScheduled=False/Unschedulable, and adaptive scheduling moves them to zb.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Deployments } from '../../api/resource-type.js';
import { countBySubset, deployment, eventually, livePods, spread, startSpreadEnv, subsetOf, WorkloadSpreadsV1alpha1, zoneTerm, type WorkloadEnv } from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startSpreadEnv({ nodes: 2, nodeCapacity: { pods: '3' } }); });
after(() => w.stop());

test('pods beyond the zone a node capacity are Unschedulable, then rescheduled into zb', async () => {
  await w.client.create(WorkloadSpreadsV1alpha1, spread({
    subsets: [{ name: 'za', maxReplicas: 5, requiredNodeSelectorTerm: zoneTerm('a') }, { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') }],
    scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 3 } },
  }));
  await w.client.create(Deployments, deployment('web', 6));
  const pending = await eventually('za pods left Unschedulable by capacity', async () => {
    const stuck = (await livePods(w.client, 'web')).filter((p) => subsetOf(p) === 'za' && p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable'));
    return stuck.length > 0 ? stuck : undefined;
  }, 15_000);
  assert.match(pending[0].status!.conditions!.find((c) => c.type === 'PodScheduled')!.message ?? '', /Too many pods/);
  const settled = await eventually('za 3 running, zb 3 running', async () => {
    const pods = await livePods(w.client, 'web');
    return pods.length === 6 && pods.every((p) => p.status?.phase === 'Running') ? pods : undefined;
  }, 40_000);
  assert.deepEqual(countBySubset(settled), { za: 3, zb: 3 });
});
