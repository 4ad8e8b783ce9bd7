/**
 * Conditions of workload status (ReplicaSet, Deployment, StatefulSet, DaemonSet) as their utils
 * packages write them: setting a condition whose status and reason are unchanged is a no-op;
 * otherwise the old one is removed and the new one appended, keeping its transition time when only
 * the reason changed.
 */
import type { DeploymentCondition, ConditionStatus } from '../../api/core/index.js';

/** A ReplicaSet or Deployment condition: a ReplicaSetCondition is one without lastUpdateTime. */
export type WorkloadCondition = DeploymentCondition;
import { rfc3339 } from '../../machinery/time.js';

export function getCondition(conditions: WorkloadCondition[] | undefined, type: string): WorkloadCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** A new condition stamped `now`; `withUpdateTime` adds lastUpdateTime (Deployments have it). */
export function newCondition(type: string, status: ConditionStatus, reason: string, message: string, now: number, withUpdateTime = false): WorkloadCondition {
  const at = rfc3339(now);
  return withUpdateTime
    ? { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message }
    : { type, status, lastTransitionTime: at, reason, message };
}

/** SetDeploymentCondition / SetCondition: returns the new list (the input is not modified). */
export function setCondition(conditions: WorkloadCondition[] | undefined, condition: WorkloadCondition): WorkloadCondition[] {
  const list = conditions ?? [];
  const current = getCondition(list, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return list;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  return [...list.filter((c) => c.type !== condition.type), next];
}

export function removeCondition(conditions: WorkloadCondition[] | undefined, type: string): WorkloadCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
