/**
 * Finished-pod accounting with the job-tracking finalizer, as upstream does it: a finished pod is
 * first recorded by uid in `status.uncountedTerminatedPods`, then its finalizer is removed, then the
 * uid moves into the `succeeded`/`failed` counters. A crash between steps neither loses nor doubles
 * a pod: the uid list says what was recorded, and the finalizer says what is not released yet.
 */
import { isPodReady } from '../../../control/podutil/index.js';
import type { JobCounts } from './job-budget.js';
import { finishedAs, hasTrackingFinalizer } from './job-pod.js';
import { parseIndexes, podIndex } from './indexes.js';
import { isIndexed } from './types.js';
import type { Pod, Job, JobStatus } from '../../../api/core/index.js';

export interface FinishedPod {
  pod: Pod;
  as: 'succeeded' | 'failed';
}

export interface PodSets {
  active: Pod[];
  /** Being deleted and not yet finished. */
  terminating: Pod[];
  /** Finished pods still holding the finalizer, not yet recorded as uncounted. */
  newlyFinished: FinishedPod[];
  /** Finished pods still holding the finalizer (recorded or new): release these after the status write. */
  holding: FinishedPod[];
}

/** Sorts the Job's pods; `releasing` are uids whose finalizer removal the cache has not shown yet. */
export function classifyPods(job: Job, pods: Pod[], releasing: ReadonlySet<string>): PodSets {
  const recorded = new Set([...(job.status?.uncountedTerminatedPods?.succeeded ?? []), ...(job.status?.uncountedTerminatedPods?.failed ?? [])]);
  const sets: PodSets = { active: [], terminating: [], newlyFinished: [], holding: [] };
  for (const pod of pods) {
    const as = finishedAs(pod, job);
    if (!as) {
      (pod.metadata.deletionTimestamp ? sets.terminating : sets.active).push(pod);
      continue;
    }
    const uid = pod.metadata.uid ?? '';
    if (!hasTrackingFinalizer(pod) || releasing.has(uid)) continue; // already counted
    sets.holding.push({ pod, as });
    if (!recorded.has(uid)) sets.newlyFinished.push({ pod, as });
  }
  return sets;
}

export function countsOf(job: Job, sets: PodSets): JobCounts {
  const uncounted = job.status?.uncountedTerminatedPods;
  const newly = (as: string) => sets.newlyFinished.filter((f) => f.as === as).length;
  const counts: JobCounts = {
    succeeded: (job.status?.succeeded ?? 0) + (uncounted?.succeeded?.length ?? 0) + newly('succeeded'),
    failed: (job.status?.failed ?? 0) + (uncounted?.failed?.length ?? 0) + newly('failed'),
    active: sets.active.length,
    terminating: sets.terminating.length,
    restarts: restartsOf(sets.active),
  };
  if (isIndexed(job)) counts.completedIndexes = completedIndexesOf(job, sets);
  return counts;
}

function completedIndexesOf(job: Job, sets: PodSets): Set<number> {
  const completions = job.spec?.completions ?? 0;
  const done = parseIndexes(job.status?.completedIndexes, completions);
  for (const f of sets.newlyFinished) {
    const i = podIndex(f.pod);
    if (f.as === 'succeeded' && i !== undefined && i < completions) done.add(i);
  }
  return done;
}

function restartsOf(pods: Pod[]): number {
  let n = 0;
  for (const pod of pods) {
    const statuses = [...(pod.status?.containerStatuses ?? []), ...((pod.status?.initContainerStatuses as { restartCount?: number }[] | undefined) ?? [])];
    for (const s of statuses) n += s.restartCount ?? 0;
  }
  return n;
}

export function readyCount(pods: Pod[]): number {
  return pods.filter(isPodReady).length;
}

/** The status with newly finished pods recorded as uncounted. */
export function recordUncounted(status: JobStatus, newlyFinished: FinishedPod[]): JobStatus {
  if (newlyFinished.length === 0) return status;
  const uids = (as: string) => newlyFinished.filter((f) => f.as === as).map((f) => f.pod.metadata.uid!);
  const u = status.uncountedTerminatedPods ?? {};
  return { ...status, uncountedTerminatedPods: { succeeded: [...(u.succeeded ?? []), ...uids('succeeded')], failed: [...(u.failed ?? []), ...uids('failed')] } };
}

/** Moves `released` uids (finalizer gone or pod gone) from the uncounted lists into the counters. */
export function flushUncounted(status: JobStatus, released: ReadonlySet<string>): JobStatus {
  const u = status.uncountedTerminatedPods;
  if (!u) return status;
  const keep = (list: string[] | undefined) => (list ?? []).filter((uid) => !released.has(uid));
  const succeeded = keep(u.succeeded);
  const failed = keep(u.failed);
  return {
    ...status,
    succeeded: (status.succeeded ?? 0) + (u.succeeded?.length ?? 0) - succeeded.length,
    failed: (status.failed ?? 0) + (u.failed?.length ?? 0) - failed.length,
    uncountedTerminatedPods: { succeeded, failed },
  };
}
