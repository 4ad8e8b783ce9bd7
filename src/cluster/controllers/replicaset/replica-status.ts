/**
 * ReplicaSet status from the pods it owns (calculateStatus in Kubernetes' replica_set_utils.go):
 * counts of active, fully labelled, ready and available pods, and a ReplicaFailure condition while
 * creating or deleting pods fails. Zero counts are left out as Go's omitempty does, except
 * `replicas`, which is always written.
 */
import { selectorFromSet } from '../../../machinery/labels.js';
import { getCondition, newCondition, removeCondition, setCondition } from '../../../control/conditions/index.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isPodAvailable, isPodReady, msUntilAvailable } from '../../../control/podutil/index.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';

export type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;

const failureType = 'ReplicaFailure';

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The status `rs` should have given its active, claimed `pods` and the error of this sync's scaling. */
export function calculateStatus(rs: ReplicaSet, pods: readonly Pod[], manageError: unknown, now: number): ReplicaSetStatus {
  const templateLabels = selectorFromSet(rs.spec?.template?.metadata?.labels);
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0, ready = 0, available = 0;
  for (const pod of pods) {
    if (templateLabels.matches(pod.metadata.labels)) fullyLabeled++;
    if (!isPodReady(pod)) continue;
    ready++;
    if (isPodAvailable(pod, minReady, now)) available++;
  }
  let conditions = rs.status?.conditions;
  const failure = getCondition(conditions, failureType);
  if (manageError !== undefined && !failure) {
    const diff = pods.length - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions = setCondition(conditions, newCondition(failureType, 'True', reason, errorMessage(manageError), now));
  } else if (manageError === undefined && failure) {
    conditions = removeCondition(conditions, failureType);
  }
  return compact({
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation,
    conditions,
  });
}

function compact(s: ReplicaSetStatus): ReplicaSetStatus {
  const out: ReplicaSetStatus = { replicas: s.replicas ?? 0 };
  if (s.fullyLabeledReplicas) out.fullyLabeledReplicas = s.fullyLabeledReplicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.availableReplicas) out.availableReplicas = s.availableReplicas;
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  return out;
}

/** True when writing `next` would change nothing the API shows. */
export function statusUnchanged(current: ReplicaSetStatus | undefined, next: ReplicaSetStatus): boolean {
  const c: ReplicaSetStatus = current ?? { replicas: 0 };
  return (c.replicas ?? 0) === (next.replicas ?? 0)
    && (c.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0)
    && (c.readyReplicas ?? 0) === (next.readyReplicas ?? 0)
    && (c.availableReplicas ?? 0) === (next.availableReplicas ?? 0)
    && (c.observedGeneration ?? 0) === (next.observedGeneration ?? 0)
    && deepEqual(c.conditions ?? [], next.conditions ?? []);
}

/** When the next ready pod turns available (minReadySeconds), so a sync can be scheduled then. */
export function nextAvailableInMs(rs: ReplicaSet, pods: readonly Pod[], now: number): number | undefined {
  const minReady = rs.spec?.minReadySeconds ?? 0;
  if (!minReady) return undefined;
  const waits = pods.map((p) => msUntilAvailable(p, minReady, now)).filter((ms) => ms > 0);
  return waits.length > 0 ? Math.min(...waits) : undefined;
}
