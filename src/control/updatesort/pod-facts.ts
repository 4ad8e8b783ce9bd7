/**
 * The slice of a core/v1 Pod the ordering rules read, and the small facts derived from it
 * (readiness, ready-since, restarts, deletion cost) as k8s computes them for ActivePods.
 */
import type { Pod } from '../../api/core/index.js';
import { isPodReady, maxContainerRestarts } from '../podutil/index.js';

export { isPodReady, maxContainerRestarts };
import { LifecycleStateLabel, PodDeletionCostAnnotation } from '../../api/kruise/workloads/labels.js';


export const labelsOf = (pod: Pod): Record<string, string> => pod.metadata.labels ?? {};

/** When the Ready condition turned True; undefined when not ready (Go's zero time). */
export function podReadyTime(pod: Pod): string | undefined {
  if (!isPodReady(pod)) return undefined;
  return pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime || undefined;
}

/** pod-deletion-cost as an int32; missing, `+1`, `007`, non-integers and out-of-range values read as 0. */
export function podDeletionCost(pod: Pod): number {
  const value = pod.metadata.annotations?.[PodDeletionCostAnnotation];
  if (value === undefined || !/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return 0;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647 ? n + 0 : 0; // `+ 0` turns -0 into 0
}

export const lifecycleStateOf = (pod: Pod): string | undefined => pod.metadata.labels?.[LifecycleStateLabel];

/** Pending < Unknown < Running; any other phase counts as Pending (a Go map miss). */
export function phaseOrdinal(pod: Pod): number {
  const phase = pod.status?.phase;
  return phase === 'Running' ? 2 : phase === 'Unknown' ? 1 : 0;
}

/**
 * Go's afterOrZero as a comparator step: -1 when `a` sorts first, i.e. `a` is the zero time
 * (and `b` is not) or `a` is later; 0 when equal.
 */
export function newerOrZeroFirst(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (!a || !b) return a ? 1 : -1;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return ta === tb ? 0 : ta > tb ? -1 : 1;
}
