/**
 * What one pass does with a workload's revision history (docs/design/workload-common.md §3), as pure decisions:
 * which revision is current and which is the update target, whether to create one, re-number an
 * older equal one (rollback) or reuse the newest; and which stale revisions to trim.
 */
import { findEqualRevisions, nextRevisionNumber, sortRevisions } from './equality.js';
import { newRevision, revisionData, shortHash } from './new-revision.js';
import type { RevisionedWorkload, RevisionOptions } from './types.js';
import type { ControllerRevision } from '../../api/core/index.js';

export interface RevisionPlan {
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  /** A new revision to create; its name is already free among the revisions given. */
  toCreate?: ControllerRevision;
  /** An older revision equal to today's template, re-numbered to be the newest. */
  toBump?: ControllerRevision;
  /** The collision count to record in status (grown past names taken by other content). */
  collisionCount: number;
}

/** The revision for today's template with the first collision count whose name is free. */
export function candidateRevision(
  workload: RevisionedWorkload, revisions: readonly ControllerRevision[], revisionNumber: number,
  collisionCount: number, options: RevisionOptions = {},
): { revision: ControllerRevision; collisionCount: number } {
  const data = revisionData(workload);
  const taken = new Set(revisions.map((r) => r.metadata.name));
  let count = collisionCount;
  let revision = newRevision(workload, data, revisionNumber, count, options);
  while (taken.has(revision.metadata.name)) revision = newRevision(workload, data, revisionNumber, ++count, options);
  return { revision, collisionCount: count };
}

export function planRevisions(
  workload: RevisionedWorkload, liveRevisions: readonly ControllerRevision[], options: RevisionOptions = {},
): RevisionPlan {
  const revisions = sortRevisions(liveRevisions);
  let collisionCount = workload.status?.collisionCount ?? 0;
  const next = nextRevisionNumber(revisions);
  const probe = newRevision(workload, revisionData(workload), next, collisionCount, options);
  const equal = findEqualRevisions(revisions, probe);
  const newest = revisions[revisions.length - 1];
  const lastEqual = equal[equal.length - 1];
  let updateRevision: ControllerRevision;
  let toCreate: ControllerRevision | undefined;
  let toBump: ControllerRevision | undefined;
  if (lastEqual && lastEqual === newest) {
    updateRevision = newest;
  } else if (lastEqual) {
    toBump = { ...lastEqual, revision: next };
    updateRevision = toBump;
  } else {
    ({ revision: toCreate, collisionCount } = candidateRevision(workload, revisions, next, collisionCount, options));
    updateRevision = toCreate;
  }
  const wanted = workload.status?.currentRevision;
  const currentRevision = (wanted === updateRevision.metadata.name ? updateRevision : undefined)
    ?? revisions.find((r) => r.metadata.name === wanted) ?? updateRevision;
  return { currentRevision, updateRevision, collisionCount, ...(toCreate ? { toCreate } : {}), ...(toBump ? { toBump } : {}) };
}

/**
 * Revisions to delete, oldest first: those that are neither current, update, nor the revision of a
 * live pod, beyond the `limit` newest such. Pod labels may hold a revision name or a bare hash.
 */
export function revisionsToTrim(
  revisions: readonly ControllerRevision[], podRevisionLabels: Iterable<string | undefined>,
  current: ControllerRevision | undefined, update: ControllerRevision | undefined, limit = 10,
): ControllerRevision[] {
  const live = new Set<string>();
  for (const r of [current, update]) if (r?.metadata.name) live.add(shortHash(r.metadata.name));
  for (const label of podRevisionLabels) if (label) live.add(shortHash(label));
  return revisionsToPrune(revisions, (r) => live.has(shortHash(r.metadata.name ?? '')), limit);
}

/** The oldest revisions that are not `live`, beyond the `limit` newest such. */
export function revisionsToPrune(revisions: readonly ControllerRevision[], live: (r: ControllerRevision) => boolean, limit: number): ControllerRevision[] {
  const dead = sortRevisions(revisions).filter((r) => !live(r));
  return dead.slice(0, Math.max(0, dead.length - Math.max(0, limit)));
}
