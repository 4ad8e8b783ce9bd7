/**
 * The kubelet-owned part of a pod's status, computed from a PodView, and the smallest write that
 * brings the API object there: a strategic merge patch of the status subresource carrying only the
 * owned fields (conditions merge by type, so other writers' conditions such as readiness gates stay),
 * with `metadata.uid` as a precondition the way kubelet's status manager sends it.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { containerStatus } from './container-status.js';
import { kubeletConditionTypes, podConditions } from './pod-conditions.js';
import { podPhase } from './pod-phase.js';
import { initEntries, initialized, mainEntries, type PodView } from './pod-view.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodCondition, PodStatus } from '../../api/core/index.js';

export interface OwnedStatus {
  phase: NonNullable<PodStatus['phase']>;
  conditions: PodCondition[];
  hostIP: string;
  hostIPs: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime: string;
  initContainerStatuses?: PodStatus['initContainerStatuses'];
  containerStatuses: NonNullable<PodStatus['containerStatuses']>;
}

/** `terminated`: the pod is being deleted and all its containers have stopped (phase becomes terminal). */
export function computePodStatus(view: PodView, terminated = false): OwnedStatus {
  const pod = view.pod;
  const initDone = initialized(view);
  const initStatuses = initEntries(view).map((e) => containerStatus(view, e, initDone));
  const containerStatuses = mainEntries(view).map((e) => containerStatus(view, e, initDone));
  const phase = podPhase(view, terminated);
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
  return status;
}

/** A condition without null or missing fields (a merge patch deletes fields set to null). */
const withoutNulls = (c: PodCondition): Partial<PodCondition> =>
  Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null && v !== undefined));

/** Whether `current` already shows every owned field as `desired` has it. */
export function statusUpToDate(current: PodStatus | undefined, desired: OwnedStatus): boolean {
  const cur = current ?? {};
  for (const key of ['phase', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'initContainerStatuses', 'containerStatuses'] as const) {
    if (!deepEqual(cur[key], desired[key])) return false;
  }
  for (const c of desired.conditions) {
    const old = (cur.conditions ?? []).find((x) => x.type === c.type);
    if (!old || !deepEqual(withoutNulls(old), withoutNulls(c))) return false;
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
