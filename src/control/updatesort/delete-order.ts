/**
 * Which pods CloneSet removes on scale-in (docs/design/cloneset.md §8): `oldDiff` from the pods not
 * on the update revision, the rest from the updated ones, each group in ActivePods order extended
 * with availability, pod-deletion-cost and a spread rank.
 */
import type { Pod } from '../../api/core/index.js';
import { SpecifiedDeleteLabel } from '../../api/kruise/workloads/labels.js';
import { sortActivePods } from './active-pods.js';
import { sameNodeRanks, spreadConstraintRanks, type PodSpreadConstraint } from './spread-rank.js';

export interface DeleteChoiceOptions<P extends Pod> {
  /** True for pods on the update revision. */
  isUpdated: (pod: P) => boolean;
  /** How many of the pods to delete come from the not-updated group (`downOld`). */
  oldDiff: number;
  /** Availability under the workload's minReadySeconds; when absent only readiness counts. */
  isAvailable?: (pod: P) => boolean;
  /** Spread constraints; when present (with node labels) they rank pods instead of "pods sharing a node". */
  spreadConstraints?: readonly PodSpreadConstraint[];
  nodeLabels?: (nodeName: string) => Record<string, string> | undefined;
}

/** True when the pod is named in `scaleStrategy.podsToDelete` or carries `apps.kruise.io/specified-delete`. */
export function isSpecifiedDelete(pod: Pod, podsToDelete: readonly string[] = []): boolean {
  return podsToDelete.includes(pod.metadata.name ?? '') || pod.metadata.labels?.[SpecifiedDeleteLabel] !== undefined;
}

/** The first `diff` pods to delete in deletion order per group; old-revision pods come first in the result. */
export function choosePodsToDelete<P extends Pod>(pods: readonly P[], diff: number, options: DeleteChoiceOptions<P>): P[] {
  if (diff <= 0) return [];
  const oldPods = pods.filter((p) => !options.isUpdated(p));
  const newPods = pods.filter((p) => options.isUpdated(p));
  const oldDiff = Math.max(options.oldDiff, 0);
  if (oldDiff >= diff) return choose(oldPods, diff, options);
  return [...choose(oldPods, oldDiff, options), ...choose(newPods, diff - oldDiff, options)];
}

function choose<P extends Pod>(pods: readonly P[], count: number, options: DeleteChoiceOptions<P>): P[] {
  if (count <= 0) return [];
  if (count >= pods.length) return [...pods];
  const ranks = options.spreadConstraints?.length && options.nodeLabels
    ? spreadConstraintRanks(pods, options.spreadConstraints, options.nodeLabels)
    : sameNodeRanks(pods);
  const ordered = sortActivePods(pods, {
    deletionCost: true, rank: (p) => ranks.get(p) ?? 0,
    ...(options.isAvailable ? { isAvailable: options.isAvailable } : {}),
  });
  return ordered.slice(0, count);
}
