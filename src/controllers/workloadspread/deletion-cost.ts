/**
 * pod-deletion-cost per pod (docs/design/workloadspread.md §7), so the workload's own scale-in
 * empties the last subsets first: with n subsets, subset i's pods cost 100·(n−i); pods beyond a
 * subset's maxReplicas (chosen in "delete first" order) cost −100·(i+1); pods in no subset cost
 * −100·(n+1). For pods not on the workload's latest version the subset order is reversed.
 */
import type { Pod } from '../../api/core/index.js';
import { FakeSubsetName, isActive, maxReplicasOf, type Spread } from '../../control/workloadspread/index.js';
import { sortActivePods } from '../../control/updatesort/index.js';

/** Costs of the active pods of one version group. */
export function deletionCosts(ws: Spread, bySubset: Map<string, Pod[]>, replicas: number, latest: boolean): Map<Pod, number> {
  const costs = new Map<Pod, number>();
  const n = ws.spec.subsets.length;
  ws.spec.subsets.forEach((subset, index) => {
    const i = latest ? index : n - 1 - index;
    const pods = (bySubset.get(subset.name) ?? []).filter(isActive);
    const max = maxReplicasOf(subset, replicas);
    const over = max < 0 ? 0 : Math.max(0, pods.length - max);
    const ordered = over > 0 ? sortActivePods(pods) : pods;
    ordered.forEach((pod, k) => costs.set(pod, k < over ? -100 * (i + 1) : 100 * (n - i)));
  });
  for (const pod of (bySubset.get(FakeSubsetName) ?? []).filter(isActive)) costs.set(pod, -100 * (n + 1));
  return costs;
}
