/**
 * Deployment status as the deployment controller writes it (sync.go calculateStatus and
 * progress.go syncRolloutStatus): counts summed over the ReplicaSets, Available by minimum
 * availability, and Progressing by comparing the new counts with the old status, timing out after
 * progressDeadlineSeconds without progress. `kubectl rollout status` reads exactly these fields.
 */
import { getCondition, newCondition, removeCondition, setCondition } from '../../../control/conditions/index.js';
import { maxUnavailable, specReplicas } from './budgets.js';
import { timeOf } from '../../../machinery/time.js';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../../api/core/index.js';

export const Reasons = {
  newRSCreated: 'NewReplicaSetCreated', foundNewRS: 'FoundNewReplicaSet', rsUpdated: 'ReplicaSetUpdated',
  newRSAvailable: 'NewReplicaSetAvailable', timedOut: 'ProgressDeadlineExceeded', paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed', failedRSCreate: 'ReplicaSetCreateError',
  minAvailable: 'MinimumReplicasAvailable', minUnavailable: 'MinimumReplicasUnavailable',
} as const;

const sum = (list: readonly ReplicaSet[], f: (rs: ReplicaSet) => number | undefined) => list.reduce((n, rs) => n + (f(rs) ?? 0), 0);

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== 2147483647;
}

export function calculateStatus(allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now: number): DeploymentStatus {
  const available = sum(allRSs, (rs) => rs.status?.availableReplicas);
  const total = sum(allRSs, (rs) => specReplicas(rs));
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: sum(allRSs, (rs) => rs.status?.replicas),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum(allRSs, (rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    collisionCount: d.status?.collisionCount,
    conditions: d.status?.conditions,
  };
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const condition = available >= minAvailable
    ? newCondition('Available', 'True', Reasons.minAvailable, 'Deployment has minimum availability.', now, true)
    : newCondition('Available', 'False', Reasons.minUnavailable, 'Deployment does not have minimum availability.', now, true);
  status.conditions = setCondition(status.conditions, condition);
  return status;
}

export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = specReplicas(d);
  return (s.updatedReplicas ?? 0) === want && (s.replicas ?? 0) === want && (s.availableReplicas ?? 0) === want
    && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** More updated, ready or available pods than the old status says, or fewer old ones. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = d.status ?? {};
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld
    || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}

export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s.conditions, 'Progressing');
  if (!c || c.reason === Reasons.newRSAvailable) return false;
  if (c.reason === Reasons.timedOut) return true;
  const from = timeOf(c.lastUpdateTime);
  return from !== undefined && from + d.spec!.progressDeadlineSeconds! * 1000 < now;
}

/** syncRolloutStatus: the status to write (progress estimated unless the rollout already completed). */
export function rolloutStatus(allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now: number): DeploymentStatus {
  const s = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) s.conditions = removeCondition(s.conditions, 'Progressing');
  const current = getCondition(d.status?.conditions, 'Progressing');
  const complete = s.replicas === s.updatedReplicas && current?.reason === Reasons.newRSAvailable;
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, s)) {
      s.conditions = setCondition(s.conditions, newCondition('Progressing', 'True', Reasons.newRSAvailable, `${subject} has successfully progressed.`, now, true));
    } else if (deploymentProgressing(d, s)) {
      // Progress refreshes lastUpdateTime even with the same reason, which setCondition would not do.
      const c = newCondition('Progressing', 'True', Reasons.rsUpdated, `${subject} is progressing.`, now, true);
      if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
      s.conditions = [...removeCondition(s.conditions, 'Progressing'), c];
    } else if (deploymentTimedOut(d, s, now)) {
      s.conditions = setCondition(s.conditions, newCondition('Progressing', 'False', Reasons.timedOut, `${subject} has timed out progressing.`, now, true));
    }
  }
  // The new ReplicaSet's failure wins over old ones'; the condition carries the ReplicaSet's times.
  const failure = [newRS, ...allRSs].map((rs) => getCondition(rs?.status?.conditions, 'ReplicaFailure')).find((c) => c !== undefined);
  s.conditions = failure
    ? setCondition(s.conditions, { ...failure, lastUpdateTime: failure.lastTransitionTime })
    : removeCondition(s.conditions, 'ReplicaFailure');
  return compactStatus(s);
}

/** Go's omitempty: zero counts and empty lists are not written (collisionCount is a pointer: kept). */
export function compactStatus(s: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {};
  for (const k of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const) {
    if (s[k]) out[k] = s[k];
  }
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  return out;
}

/** requeueStuckDeployment: when to look again for a deadline, or undefined if no deadline is running. */
export function progressCheckInMs(d: Deployment, s: DeploymentStatus, now: number): number | undefined {
  const c = getCondition(s.conditions, 'Progressing');
  if (!hasProgressDeadline(d) || !c || deploymentComplete(d, s) || c.reason === Reasons.timedOut) return undefined;
  const from = timeOf(c.lastUpdateTime) ?? now;
  return Math.max(1000, from + d.spec!.progressDeadlineSeconds! * 1000 - now + 1);
}

/** checkPausedConditions: Progressing Unknown DeploymentPaused/Resumed on a change of spec.paused, or undefined. */
export function pausedConditions(d: Deployment, now: number): DeploymentStatus['conditions'] | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const c = getCondition(d.status?.conditions, 'Progressing');
  if (c?.reason === Reasons.timedOut) return undefined; // a reported lack of progress is not overwritten
  const pausedShown = c?.reason === Reasons.paused;
  if (d.spec?.paused && !pausedShown) {
    return setCondition(d.status?.conditions, newCondition('Progressing', 'Unknown', Reasons.paused, 'Deployment is paused', now, true));
  }
  if (!d.spec?.paused && pausedShown) {
    return setCondition(d.status?.conditions, newCondition('Progressing', 'Unknown', Reasons.resumed, 'Deployment is resumed', now, true));
  }
  return undefined;
}
