/**
 * Revision history cleanup (sync.go cleanupDeployment): beyond revisionHistoryLimit, the old
 * ReplicaSets with the lowest revisions are deleted, but only ones fully scaled down, with no pods
 * left and whose status has caught up with their spec.
 */
import { revisionOf } from './annotations.js';
import { byCreation } from './replica-sets.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

/** Lowest revision first; equal (or unparsable) revisions by creation time. */
function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revisionOf(a), rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b);
  return ra - rb;
}

export function replicaSetsToDelete(d: Deployment, oldRSs: readonly ReplicaSet[]): ReplicaSet[] {
  const limit = d.spec?.revisionHistoryLimit;
  if (limit === undefined || limit === null) return [];
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const excess = cleanable.length - limit;
  if (excess <= 0) return [];
  return [...cleanable].sort(byRevision).slice(0, excess).filter((rs) =>
    (rs.status?.replicas ?? 0) === 0 && (rs.spec?.replicas ?? 0) === 0
    && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0));
}
