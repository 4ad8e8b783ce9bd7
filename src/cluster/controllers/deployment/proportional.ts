/**
 * Scaling a Deployment that is paused or mid-rollout (Kubernetes' sync.go `scale`): with one active
 * ReplicaSet it takes the whole count; with a saturated new one the old ones go to zero; otherwise
 * the change is spread over the active ReplicaSets in proportion to their size at the time of the
 * last scaling (their max-replicas annotation), leftovers going to the largest.
 */
import { desiredReplicasOf, maxReplicasOf } from './annotations.js';
import { isRollingUpdate, maxSurge, specReplicas, sumSpecReplicas } from './budgets.js';
import { activeReplicaSets, byCreation } from './replica-sets.js';
import type { ScalePlan } from './rolling.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

/** Any active ReplicaSet annotated with another desired count than the deployment now has. */
export function isScalingEvent(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): boolean {
  return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = desiredReplicasOf(rs);
    return desired !== undefined && desired !== specReplicas(d);
  });
}

export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = specReplicas(d);
  return desiredReplicasOf(rs) === desired && specReplicas(rs) === desired && (rs.status?.availableReplicas ?? 0) === desired;
}

/** Go's integer.RoundToInt32: halves away from zero. */
const roundHalfAway = (a: number): number => (a < 0 ? Math.trunc(a - 0.5) : Math.trunc(a + 0.5));

function fraction(rs: ReplicaSet, d: Deployment): number {
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = specReplicas(d) + maxSurge(d);
  const annotated = maxReplicasOf(rs) ?? d.status?.replicas ?? 0;
  if (annotated === 0) return 0; // nothing to be proportional to
  return roundHalfAway((specReplicas(rs) * deploymentReplicas) / annotated) - specReplicas(rs);
}

export function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}

export interface ScaleDecision {
  plan: ScalePlan;
  /** Write every planned ReplicaSet even at the same size, to refresh its replicas annotations. */
  syncAnnotations: boolean;
}

export function planScale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ScaleDecision {
  const plan: ScalePlan = new Map();
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only) {
    if (specReplicas(only) !== specReplicas(d)) plan.set(only.metadata.name!, specReplicas(d));
    return { plan, syncAnnotations: false };
  }
  if (isSaturated(d, newRS)) {
    for (const rs of activeReplicaSets(oldRSs)) plan.set(rs.metadata.name!, 0);
    return { plan, syncAnnotations: false };
  }
  if (!isRollingUpdate(d)) return { plan, syncAnnotations: false };
  const all = activeReplicaSets([...oldRSs, newRS]);
  const allowed = specReplicas(d) > 0 ? specReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowed - sumSpecReplicas(all);
  // Growing: largest first, newer first on ties. Shrinking: largest first, older first on ties.
  all.sort((a, b) => specReplicas(b) - specReplicas(a) || (toAdd > 0 ? byCreation(b, a) : byCreation(a, b)));
  let added = 0;
  for (const rs of all) {
    const p = toAdd !== 0 ? proportion(rs, d, toAdd, added) : 0;
    plan.set(rs.metadata.name!, specReplicas(rs) + p);
    added += p;
  }
  if (toAdd !== 0 && all.length > 0) {
    const first = all[0].metadata.name!;
    plan.set(first, Math.max(0, plan.get(first)! + toAdd - added));
  }
  return { plan, syncAnnotations: true };
}
