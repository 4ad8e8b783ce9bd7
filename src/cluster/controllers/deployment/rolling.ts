/**
 * One step of a rolling update, as pure arithmetic (Kubernetes' rolling.go): grow the new
 * ReplicaSet within maxSurge; otherwise shrink old ReplicaSets within maxUnavailable, first by
 * dropping their unavailable pods (oldest ReplicaSet first), then by scaling down available ones
 * while at least `replicas - maxUnavailable` pods stay available. Results are target sizes by name.
 */
import { maxUnavailable, newReplicaSetReplicas, specReplicas } from './budgets.js';
import { byCreation } from './replica-sets.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

export type ScalePlan = Map<string, number>;

const available = (rs: ReplicaSet): number => rs.status?.availableReplicas ?? 0;

/** reconcileNewReplicaSet: the new ReplicaSet's target size, or undefined when it stays as is. */
export function planNewReplicaSet(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number | undefined {
  const current = specReplicas(newRS);
  const desired = specReplicas(d);
  if (current === desired) return undefined;
  if (current > desired) return desired;
  const next = newReplicaSetReplicas(d, allRSs, newRS);
  return next === current ? undefined : next;
}

/** reconcileOldReplicaSets over the active old ReplicaSets: their new sizes (only changed ones). */
export function planOldReplicaSets(d: Deployment, oldRSs: readonly ReplicaSet[], allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined): ScalePlan {
  const plan: ScalePlan = new Map();
  const size = (rs: ReplicaSet) => plan.get(rs.metadata.name!) ?? specReplicas(rs);
  const oldTotal = oldRSs.reduce((n, rs) => n + specReplicas(rs), 0);
  if (oldTotal === 0) return plan;
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const newUnavailable = newRS ? specReplicas(newRS) - available(newRS) : 0;
  const allTotal = allRSs.reduce((n, rs) => n + specReplicas(rs), 0);
  const maxScaledDown = allTotal - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return plan;
  const oldest = [...oldRSs].sort(byCreation);

  // Unavailable old pods first: removing them costs no availability.
  let cleaned = 0;
  for (const rs of oldest) {
    if (cleaned >= maxScaledDown) break;
    const unhealthy = specReplicas(rs) - available(rs);
    if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
    const n = Math.min(maxScaledDown - cleaned, unhealthy);
    plan.set(rs.metadata.name!, specReplicas(rs) - n);
    cleaned += n;
  }

  // Then available ones, as long as enough stay available (counted over active old ReplicaSets and the new one).
  const availableNow = [...oldRSs, ...(newRS ? [newRS] : [])].reduce((n, rs) => n + available(rs), 0);
  if (availableNow <= minAvailable) return plan;
  const budget = availableNow - minAvailable;
  let scaled = 0;
  for (const rs of oldest) {
    if (scaled >= budget) break;
    if (size(rs) === 0) continue;
    const n = Math.min(size(rs), budget - scaled);
    plan.set(rs.metadata.name!, size(rs) - n);
    scaled += n;
  }
  return plan;
}
