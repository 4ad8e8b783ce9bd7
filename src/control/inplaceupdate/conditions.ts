/**
 * The `InPlaceUpdateReady` pod condition (docs/design/inplace-update.md §4, §5). Setting it False also
 * turns `Ready` False at once when ContainersReady is True, with the kubelet's readiness-gate
 * reason, so traffic drains before the containers restart; the kubelet turns Ready back on after
 * the condition is True again. Pure: each returns an updated copy, or undefined when nothing changes;
 * callers may replace the copy's metadata maps, status and conditions, but change nothing deeper.
 */
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Pod, PodCondition } from '../../api/core/index.js';

export const StartInPlaceUpdateReason = 'StartInPlaceUpdate';

export const hasInPlaceReadinessGate = (pod: Pod): boolean =>
  (pod.spec.readinessGates ?? []).some((g) => g.conditionType === InPlaceUpdateReadyCondition);

export const podCondition = (pod: Pod, type: string): PodCondition | undefined =>
  pod.status?.conditions?.find((c) => c.type === type);

/** Same status, reason and message (upstream's hasEqualCondition; times are ignored). */
function sameCondition(a: PodCondition | undefined, b: PodCondition): boolean {
  return !!a && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}

/** Replaces (or appends) the condition, keeping lastTransitionTime when the status is unchanged. */
function setCondition(pod: Pod, next: PodCondition): void {
  const conditions = ((pod.status ??= {}).conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) { conditions.push(next); return; }
  const old = conditions[i];
  conditions[i] = old.status === next.status && old.lastTransitionTime ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
}

/** The kubelet's message for readiness gates that are not True. */
function gateMessages(pod: Pod): string[] {
  return (pod.spec.readinessGates ?? []).flatMap(({ conditionType }) => {
    const c = podCondition(pod, conditionType);
    if (!c) return [`corresponding condition of pod readiness gate "${conditionType}" does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate "${conditionType}" is not "True", but ${c.status}`];
  });
}

/** docs/design/inplace-update.md §4 step 1: `InPlaceUpdateReady=False` reason StartInPlaceUpdate, and Ready False when ContainersReady is True. */
export function markInPlaceUpdateStarted(pod: Pod, now: Date): Pod | undefined {
  const next: PodCondition = { type: InPlaceUpdateReadyCondition, status: 'False', reason: StartInPlaceUpdateReason, lastTransitionTime: rfc3339(now) };
  if (sameCondition(podCondition(pod, InPlaceUpdateReadyCondition), next)) return undefined;
  const out = structuredClone(pod);
  setCondition(out, next);
  if (podCondition(out, 'ContainersReady')?.status === 'True') {
    const gates = gateMessages(out);
    if (gates.length) setCondition(out, { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: gates.join(', '), lastTransitionTime: rfc3339(now) });
  }
  return out;
}

/** docs/design/inplace-update.md §5 step 4: `InPlaceUpdateReady=True` unless it already is True with empty reason and message. */
export function markInPlaceUpdateReady(pod: Pod, now: Date): Pod | undefined {
  if (sameCondition(podCondition(pod, InPlaceUpdateReadyCondition), { type: InPlaceUpdateReadyCondition, status: 'True' })) return undefined;
  const next: PodCondition = { type: InPlaceUpdateReadyCondition, status: 'True', lastTransitionTime: rfc3339(now) };
  // Planned on every pass for each pod awaiting its flip: a copy of what a caller may replace
  // (metadata's maps, status, the conditions list), not of the whole pod (docs/design/performance.md §14).
  const out: Pod = { ...pod, metadata: { ...pod.metadata }, status: { ...pod.status, conditions: [...(pod.status?.conditions ?? [])] } };
  setCondition(out, next);
  return out;
}
