/**
 * Per-pod facts of an ASTS pass (docs/design/advanced-statefulset.md §3, §5): created (non-empty phase), finished,
 * terminating, Running and Ready, available (Ready for minReadySeconds with lifecycle Normal) and
 * healthy; and the revision a pod carries.
 */
import { ControllerRevisionHashLabel, LifecycleState, LifecycleStateLabel } from '../../api/kruise/workloads/labels.js';
import type { Pod } from '../../api/core/index.js';

export const isCreated = (pod: Pod): boolean => (pod.status?.phase ?? '') !== '';
export const isFinished = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
export const isPending = (pod: Pod): boolean => pod.status?.phase === 'Pending';
export const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;
export const podRevision = (pod: Pod): string | undefined => pod.metadata.labels?.[ControllerRevisionHashLabel];

const readyCondition = (pod: Pod) => pod.status?.conditions?.find((c) => c.type === 'Ready');

export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && readyCondition(pod)?.status === 'True';
}

/** A missing state label counts as Normal. */
export function isLifecycleNormal(pod: Pod): boolean {
  const state = pod.metadata.labels?.[LifecycleStateLabel];
  return state === undefined || state === '' || state === LifecycleState.Normal;
}

/**
 * Running, Ready for at least minReadySeconds, lifecycle Normal. `waitMs` is how long until a
 * Ready pod becomes available (a requeue delay), when that is what it lacks.
 */
export function availability(pod: Pod, minReadySeconds: number, now: number): { available: boolean; waitMs?: number } {
  if (!isRunningAndReady(pod) || !isLifecycleNormal(pod)) return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const since = Date.parse(readyCondition(pod)?.lastTransitionTime ?? '');
  const left = (Number.isNaN(since) ? now : since) + minReadySeconds * 1000 - now;
  return left <= 0 ? { available: true } : { available: false, waitMs: left };
}

/** Running and Ready, not terminating, lifecycle Normal. */
export function isHealthy(pod: Pod): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod) && isLifecycleNormal(pod);
}
