/**
 * Sums the weighted scores of the feasible nodes (the default profile's Score plugins). Scores a
 * pod does not trigger (no preferences, no spreading) are left out: they would be equal everywhere.
 */
import type { ClusterView, CycleState } from './find-node.js';
import type { WeightedTerm } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import { normalizeMinMax, prepareAffinityScore, rawAffinityScore } from './pod-affinity-score.js';
import { balancedAllocationScore, leastAllocatedScore, nodeAffinityScores, taintTolerationScores, WEIGHTS } from './scores.js';
import { spreadScores } from './topology-spread.js';

function addWeighted(total: number[], scores: readonly number[] | undefined, weight: number): void {
  if (!scores) return;
  for (let i = 0; i < total.length; i++) total[i] += weight * scores[i];
}

/** Total weighted score per feasible node, in the order given. */
export function scoreNodes(state: CycleState, feasible: readonly NodeInfo[], cluster: ClusterView, preferred: readonly WeightedTerm[]): number[] {
  const pod = state.pod;
  const total = new Array<number>(feasible.length);
  for (let i = 0; i < feasible.length; i++) {
    total[i] = WEIGHTS.leastAllocated * leastAllocatedScore(feasible[i], pod) + WEIGHTS.balancedAllocation * balancedAllocationScore(feasible[i], pod);
  }
  addWeighted(total, nodeAffinityScores(feasible, preferred), WEIGHTS.nodeAffinity);
  addWeighted(total, taintTolerationScores(feasible, state.tolerations), WEIGHTS.taintToleration);
  const ownPreferences = pod.preferredAffinity.length + pod.preferredAntiAffinity.length > 0;
  const affinity = ownPreferences || cluster.anyPodAffinity ? prepareAffinityScore(pod, cluster.nodes, cluster.namespaceLabels) : undefined;
  if (affinity) addWeighted(total, normalizeMinMax(feasible.map((n) => rawAffinityScore(affinity, n))), WEIGHTS.podAffinity);
  addWeighted(total, spreadScores(state.constraints, feasible, cluster.nodes, pod, state.matches), WEIGHTS.topologySpread);
  return total;
}
