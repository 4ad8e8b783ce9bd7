/**
 * The numeric inputs of one CloneSet pass (docs/design/cloneset.md §5) and the scale/update diffs derived
 * from pod counts (docs/design/cloneset.md §7), as pure functions so the rounding rules are testable on their own.
 */
import { DefaultCloneSetMaxUnavailable } from '../../api/kruise/workloads/cloneset.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import type { CloneSet } from './pods.js';

export { scaledValue };

export interface PassNumbers {
  /** spec.replicas */
  replicas: number;
  partition: number;
  maxSurge: number;
  maxUnavailable: number;
  /** scaleStrategy.maxUnavailable; Infinity when unset. */
  scaleMaxUnavailable: number;
}

export function passNumbers(cs: CloneSet): PassNumbers {
  const replicas = cs.spec.replicas ?? 1;
  const ru = cs.spec.updateStrategy?.rollingUpdate;
  const scaleMax = cs.spec.scaleStrategy?.maxUnavailable;
  const scaleMaxUnavailable = scaleMax === undefined ? Infinity : scaledValue(scaleMax, replicas, true);
  if (!ru) {
    return { replicas, partition: 0, maxSurge: 0, maxUnavailable: scaledValue(DefaultCloneSetMaxUnavailable, replicas, false), scaleMaxUnavailable };
  }
  let partition = scaledValue(ru.partition, replicas, true);
  if (typeof ru.partition === 'string' && ru.partition !== '100%' && replicas > 1 && partition === replicas) partition = replicas - 1;
  partition = Math.min(Math.max(partition, 0), replicas);
  const maxSurge = ru.paused ? 0 : scaledValue(ru.maxSurge, replicas, true);
  const maxUnavailable = scaledValue(ru.maxUnavailable ?? DefaultCloneSetMaxUnavailable, replicas, maxSurge === 0);
  return { replicas, partition, maxSurge, maxUnavailable, scaleMaxUnavailable };
}

/** Per-revision-group counts of one pass (new = on the update revision). */
export interface GroupCounts {
  total: number;
  preDeleting: number;
  /** not preDeleting */
  active: number;
  /** active and toDelete */
  toDelete: number;
  /** active, not toDelete, not available */
  unavailable: number;
}

export interface Diffs {
  scaleUpNum: number;
  scaleUpNumOld: number;
  scaleUpLimit: number;
  scaleDownNum: number;
  scaleDownNumOld: number;
  /** docs/design/cloneset.md §7 as upstream; the scale phase spends `readyDeleteBudget` of it (see there). */
  deleteReadyLimit: number;
  useSurge: number;
  useSurgeOld: number;
  /** >0: move that many pods to the update revision; <0: roll back. */
  updateNum: number;
  updateMaxUnavailable: number;
}

/** docs/design/cloneset.md §7 for counts `nw`/`old`; `excludePreparingDelete` drops preDeleting pods from the totals. */
export function calculateDiffs(n: PassNumbers, nw: GroupCounts, old: GroupCounts, excludePreparingDelete = false, partitionRollback = false): Diffs {
  const { replicas: R, partition: P, maxSurge: S, maxUnavailable: U } = n;
  const unavailableTotal = nw.preDeleting + old.preDeleting + nw.unavailable + old.unavailable;
  // Only a rollback (gate CloneSetPartitionRollback, two revisions) moves pods back when the partition grows.
  const oldDiff = partitionRollback ? old.active - P : Math.max(old.active - P, 0);
  const newDiff = partitionRollback ? nw.active - (R - P) : Math.min(nw.active - (R - P), 0);
  const toDel = nw.toDelete + old.toDelete;
  let useSurge = 0;
  let useSurgeOld = 0;
  if (S > 0) {
    const scaleSurge = Math.min(Math.max(unavailableTotal + toDel - U, 0), toDel);
    const scaleSurgeOld = Math.max(scaleSurge - nw.toDelete, 0);
    let updateSurge = 0;
    let updateSurgeOld = 0;
    if ((oldDiff > 0 && newDiff < 0) || (oldDiff < 0 && newDiff > 0)) {
      updateSurge = Math.min(Math.abs(oldDiff), Math.abs(newDiff));
      updateSurgeOld = oldDiff < 0 ? updateSurge : 0;
    }
    const useScale = scaleSurge >= updateSurge;
    useSurge = Math.min(S, useScale ? scaleSurge : updateSurge);
    useSurgeOld = Math.min(useSurge, useScale ? scaleSurgeOld : updateSurgeOld);
  }
  const total = nw.total + old.total;
  const curTotal = excludePreparingDelete ? total - nw.preDeleting - old.preDeleting : total;
  const curOld = excludePreparingDelete ? old.total - old.preDeleting : old.total;
  const expTotal = R + useSurge;
  const expOld = P + useSurgeOld;
  const up = Math.max(expTotal - curTotal, 0);
  const down = Math.max(curTotal - toDel - expTotal, 0);
  const scaleUpLimit = Math.min(up, Math.max(n.scaleMaxUnavailable - unavailableTotal, 0));
  return {
    scaleUpNum: up,
    scaleUpNumOld: up > 0 ? Math.max(expOld - curOld, 0) : 0,
    scaleUpLimit,
    scaleDownNum: down,
    scaleDownNumOld: down > 0 ? Math.max(curOld - old.toDelete - expOld, 0) : 0,
    deleteReadyLimit: toDel > 0 || down > 0 ? Math.max(U + (total - R) - unavailableTotal, 0) : 0,
    useSurge,
    useSurgeOld,
    updateNum: Math.abs(oldDiff) <= Math.abs(newDiff) ? oldDiff : -newDiff,
    updateMaxUnavailable: U + total - R,
  };
}

/**
 * Available pods one scale pass may delete (or move to PreparingDelete): `deleteReadyLimit` less
 * the toDelete pods that are already unavailable. Deliberately stricter than docs/design/cloneset.md §7 and upstream:
 * U_total leaves toDelete pods out, so an unavailable toDelete pod, deleted for free, also went
 * unbudgeted and let one more available pod go in the same pass (availability fell below R − U).
 * All unavailable pods counted, the budget is `available − (R − U)`: deleting an unavailable pod
 * costs nothing and deleting available ones never takes availability below R − U.
 */
export function readyDeleteBudget(deleteReadyLimit: number, unavailableToDelete: number): number {
  // deleteReadyLimit is clamped at 0 already; subtracting after the clamp gives the same result.
  return Math.max(deleteReadyLimit - unavailableToDelete, 0);
}
