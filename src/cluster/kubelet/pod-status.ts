/**
 * The kubelet-owned part of a pod's status, computed from a PodView, and the smallest write that
 * brings the API object there: a strategic merge patch of the status subresource carrying only the
 * owned fields (conditions merge by type, so other writers' conditions such as readiness gates stay),
 * with `metadata.uid` as a precondition the way kubelet's status manager sends it.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { containerStatus } from './container-status.js';
import { kubeletConditionTypes, podConditions } from './pod-conditions.js';
import { activeDeadlineAt, deadlineExceeded, podPhase } from './pod-phase.js';
import { ephemeralEntries, initEntries, initialized, mainEntries, type PodView } from './pod-view.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodCondition, PodStatus } from '../../api/core/index.js';

export interface OwnedStatus {
  phase: NonNullable<PodStatus['phase']>;
  /** Set when the kubelet fails the pod itself (activeDeadlineSeconds). */
  reason?: string;
  message?: string;
  conditions: PodCondition[];
  hostIP: string;
  hostIPs: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime: string;
  initContainerStatuses?: PodStatus['initContainerStatuses'];
  containerStatuses: NonNullable<PodStatus['containerStatuses']>;
  ephemeralContainerStatuses?: PodStatus['ephemeralContainerStatuses'];
}

/** `terminated`: the pod is being deleted and all its containers have stopped (phase becomes terminal). */
export function computePodStatus(view: PodView, terminated = false): OwnedStatus {
  const pod = view.pod;
  const initDone = initialized(view);
  const initStatuses = initEntries(view).map((e) => containerStatus(view, e, initDone));
  const containerStatuses = mainEntries(view).map((e) => containerStatus(view, e, initDone));
  const ephemeralStatuses = ephemeralEntries(view).map((e) => containerStatus(view, e, initDone));
  const pastDeadline = view.now >= activeDeadlineAt(view) && !view.pod.metadata.deletionTimestamp;
  const phase = pastDeadline && pod.status?.phase !== 'Succeeded' ? 'Failed' : podPhase(view, terminated);
  if (phase === 'Failed' || phase === 'Succeeded') {
    // containers of a finished pod still being stopped are no longer ready
    for (const s of [...initStatuses, ...containerStatuses]) if (s.state?.running) s.ready = false;
  }
  const podIP = pod.spec.hostNetwork ? view.hostIP : view.sandbox?.ip ?? pod.status?.podIP;
  const status: OwnedStatus = {
    phase,
    conditions: podConditions({ pod, phase, now: view.now, sandboxReady: !!view.sandbox?.ready, initStatuses, containerStatuses, initialized: initDone }),
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    startTime: pod.status?.startTime ?? rfc3339(view.now),
    containerStatuses,
  };
  if (podIP) {
    status.podIP = podIP;
    status.podIPs = [{ ip: podIP }];
  }
  if (initStatuses.length > 0) status.initContainerStatuses = initStatuses;
  if (ephemeralStatuses.length > 0) status.ephemeralContainerStatuses = ephemeralStatuses;
  if (pastDeadline && pod.status?.phase !== 'Failed' && pod.status?.phase !== 'Succeeded') Object.assign(status, deadlineExceeded);
  return status;
}

/** Equal conditions, a null field counting as missing (a merge patch deletes fields set to null). */
function sameCondition(a: PodCondition, b: PodCondition): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k in x) if (!sameField(x[k], y[k])) return false;
  for (const k in y) if (!(k in x) && !sameField(undefined, y[k])) return false;
  return true;
}

const sameField = (x: unknown, y: unknown): boolean => (x ?? undefined) === (y ?? undefined) || deepEqual(x, y);

/** Whether `current` already shows every owned field as `desired` has it. */
export function statusUpToDate(current: PodStatus | undefined, desired: OwnedStatus): boolean {
  const cur = current ?? {};
  for (const key of ['phase', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'] as const) {
    if (!deepEqual(cur[key], desired[key])) return false;
  }
  // reason and message are only ever set, never cleared, by the kubelet
  for (const key of ['reason', 'message'] as const) if (desired[key] !== undefined && cur[key] !== desired[key]) return false;
  for (const c of desired.conditions) {
    const old = (cur.conditions ?? []).find((x) => x.type === c.type);
    if (!old || !sameCondition(old, c)) return false;
  }
  return true;
}

/**
 * The strategic merge patch for the status subresource. Conditions merge by type, field by field,
 * so a reason or message the new condition lacks is sent as null to delete the old one.
 */
export function statusPatch(uid: string, desired: OwnedStatus): { metadata: { uid: string }; status: unknown } {
  const conditions = desired.conditions.filter((c) => kubeletConditionTypes.includes(c.type))
    .map((c) => ({ ...c, reason: c.reason ?? null, message: c.message ?? null }));
  return { metadata: { uid }, status: { ...desired, conditions } };
}
