/**
 * The numbers of one pass (docs/design/advanced-daemonset.md §2, §5): maxUnavailable and maxSurge round up against
 * the desired node count (both zero means maxUnavailable 1), partition rounds down against
 * `status.desiredNumberScheduled`, and burstReplicas (default 250) rounds down likewise.
 */
import { DefaultBurstReplicas, RollingUpdateType } from '../../api/kruise/workloads/daemonset.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import type { DaemonSet } from './types.js';

export { scaledValue };

const rollingUpdate = (ds: DaemonSet) =>
  (ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' ? ds.spec.updateStrategy?.rollingUpdate : undefined;

export const isOnDelete = (ds: DaemonSet): boolean => ds.spec.updateStrategy?.type === 'OnDelete';
export const isPaused = (ds: DaemonSet): boolean => ds.spec.updateStrategy?.rollingUpdate?.paused === true;

/** RollingUpdate with rollingUpdateType InPlaceIfPossible: new pods get the InPlaceUpdateReady gate. */
export const isInPlaceIfPossible = (ds: DaemonSet): boolean =>
  rollingUpdate(ds)?.rollingUpdateType === RollingUpdateType.InPlaceIfPossible;

export function surgeCount(ds: DaemonSet, desired: number): number {
  return scaledValue(rollingUpdate(ds)?.maxSurge, desired, true);
}

/** More than one pod per node is allowed during an update. */
export const allowSurge = (ds: DaemonSet): boolean => surgeCount(ds, 1) > 0;

export function rolloutBudget(ds: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
  const maxSurge = surgeCount(ds, desired);
  let maxUnavailable = scaledValue(rollingUpdate(ds)?.maxUnavailable, desired, true);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** Nodes kept on the old revision. */
export function partitionOf(ds: DaemonSet): number {
  return Math.max(0, scaledValue(rollingUpdate(ds)?.partition, ds.status?.desiredNumberScheduled ?? 0, false));
}

/** Creates, deletes and in-place updates allowed in one pass. */
export function burstReplicas(ds: DaemonSet): number {
  return scaledValue(ds.spec.burstReplicas ?? DefaultBurstReplicas, ds.status?.desiredNumberScheduled ?? 0, false);
}
