/**
 * Pod predicates the workload controllers share (Kubernetes' api/v1/pod helpers and
 * controller.FilterActivePods): readiness, availability after minReadySeconds, activity.
 */
import { rfc3339, timeOf } from '../../machinery/time.js';
import type { Pod, PodCondition } from '../../api/core/index.js';

export function podCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/**
 * Ready for more than `minReadySeconds` as of `now` (ms). With minReadySeconds 0 every ready pod is
 * available; otherwise a ready condition without a transition time never is (Go's zero time).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = timeOf(podCondition(pod, 'Ready')?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/** How long until a ready pod becomes available (0 if it already is or never will by waiting). */
export function msUntilAvailable(pod: Pod, minReadySeconds: number, now: number): number {
  if (!isPodReady(pod) || !minReadySeconds) return 0;
  const since = timeOf(podCondition(pod, 'Ready')?.lastTransitionTime);
  if (since === undefined) return 0;
  return Math.max(0, since + minReadySeconds * 1000 - now + 1);
}

export function isPodTerminating(pod: Pod): boolean {
  return Boolean(pod.metadata.deletionTimestamp);
}

/** Not finished (Succeeded/Failed) and not being deleted: the pods a controller counts. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isPodTerminating(pod);
}

export function filterActivePods(pods: Pod[]): Pod[] {
  return pods.filter(isPodActive);
}

/**
 * Pod conditions with `condition` set as UpdatePodCondition does: the transition time moves only
 * when the status changes. Returns undefined when nothing would change.
 */
export function withPodCondition(conditions: PodCondition[] | undefined, condition: PodCondition, now: number): PodCondition[] | undefined {
  const list = conditions ?? [];
  const i = list.findIndex((c) => c.type === condition.type);
  const old = i < 0 ? undefined : list[i];
  const next: PodCondition = { ...condition };
  if (!old || old.status !== condition.status) next.lastTransitionTime = rfc3339(now);
  else next.lastTransitionTime = old.lastTransitionTime;
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message && old.lastProbeTime === next.lastProbeTime) return undefined;
  const out = [...list];
  if (i < 0) out.push(next);
  else out[i] = { ...old, ...next };
  return out;
}

/** The highest restart count of any container (deletion ranking prefers crash-looping pods). */
export function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}
