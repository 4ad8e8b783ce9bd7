/**
 * Rolling-update budgets (Kubernetes' deployment util): maxSurge and maxUnavailable resolved against
 * the desired replica count, surge rounding up and unavailability rounding down, and never both 0;
 * and how far the new ReplicaSet may grow this step.
 */
import { scaledValue } from '../../../machinery/int-or-percent.js';
import type { Deployment, IntOrString, ReplicaSet } from '../../../api/core/index.js';

export { scaledValue };

export const specReplicas = (o: Deployment | ReplicaSet | undefined): number => o?.spec?.replicas ?? (o ? 1 : 0);
export const sumSpecReplicas = (list: readonly (ReplicaSet | undefined)[]): number => list.reduce((n, rs) => n + (rs ? specReplicas(rs) : 0), 0);

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 would stall, so unavailable becomes 1. */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

function fenceposts(d: Deployment): { surge: number; unavailable: number } {
  const rolling = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge, rolling?.maxUnavailable, specReplicas(d));
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? fenceposts(d).surge : 0;
}

/** At most the desired count; 0 for Recreate and for deployments scaled to zero. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || specReplicas(d) === 0) return 0;
  return Math.min(fenceposts(d).unavailable, specReplicas(d));
}

/** NewRSNewReplicas: the new ReplicaSet's next size (rolling: grow within the surge budget). */
export function newReplicaSetReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return specReplicas(d);
  const current = specReplicas(newRS);
  const maxTotal = specReplicas(d) + maxSurge(d);
  const total = sumSpecReplicas(allRSs);
  if (total >= maxTotal) return current; // no room to surge
  const room = Math.min(maxTotal - total, specReplicas(d) - current);
  return current + room;
}
