/**
 * The scheduler's view of taints. A node whose Ready condition is not True is treated as carrying
 * the taint the node lifecycle controller would add (`not-ready` or `unreachable`, NoSchedule), so
 * pods that tolerate it (DaemonSets) still land there, and the failure reads as it does on a real
 * cluster. Matching tolerations to taints is machinery/scheduling's.
 */
import { tolerated } from '../../machinery/scheduling/index.js';
import type { Node, Taint, Toleration } from '../../api/core/index.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** The readiness taint implied by the node's Ready condition, if any. */
export function readinessTaint(node: Node): Taint | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return undefined;
  // Unknown means the kubelet stopped reporting; False or no condition yet means not ready.
  const key = ready?.status === 'Unknown' ? TAINT_UNREACHABLE : TAINT_NOT_READY;
  return { key, effect: 'NoSchedule' };
}

/** spec.taints plus the implied readiness taint, unless the node already carries it. */
export function effectiveTaints(node: Node): Taint[] {
  const taints = node.spec?.taints ?? [];
  const implied = readinessTaint(node);
  if (!implied || taints.some((t) => t.key === implied.key && t.effect === implied.effect)) return taints;
  return [...taints, implied];
}

/** How many PreferNoSchedule taints the pod does not tolerate (scored, never filtered). */
export function intolerablePreferNoSchedule(taints: readonly Taint[], tolerations: readonly Toleration[] | undefined): number {
  const relevant = (tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  let n = 0;
  for (const taint of taints) if (taint.effect === 'PreferNoSchedule' && !tolerated(relevant, taint)) n++;
  return n;
}
