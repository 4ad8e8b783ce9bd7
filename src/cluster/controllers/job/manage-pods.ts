/**
 * Moves the Job's active pods toward what it wants: none once a terminal target is set or while
 * suspended; otherwise `parallelism` capped by the completions left, one pod per pending index for
 * Indexed Jobs, and no new pods while the failed-pod backoff runs.
 */
import type { BackoffStore } from './backoff-store.js';
import { activeDiff, deadlineRemainingMs, type JobCounts, type Target } from './job-budget.js';
import { byDeletionCost } from './job-pod.js';
import type { PodSets } from './job-tracking.js';
import { planIndexes, podIndex } from './indexes.js';
import type { JobPodControl } from './pod-control.js';
import { isIndexed } from './types.js';
import type { Pod, Job } from '../../../api/core/index.js';

export interface ManageInput {
  key: string;
  job: Job;
  sets: PodSets;
  counts: JobCounts;
  target: Target | undefined;
  now: number;
  control: JobPodControl;
  backoff: BackoffStore;
}

export interface ManageResult {
  /** Active pods after this step's creates and deletes. */
  active: number;
  deleted: number;
  requeueAfterMs?: number;
}

export async function manageActivePods(m: ManageInput): Promise<ManageResult> {
  const { job, sets } = m;
  if (m.target || job.spec?.suspend) {
    await m.control.delete(m.key, job, sets.active);
    return { active: 0, deleted: sets.active.length };
  }
  if (job.metadata.deletionTimestamp) return { active: sets.active.length, deleted: 0 }; // the garbage collector removes them
  const deadline = deadlineRemainingMs(job, m.now);
  let diff = activeDiff(job, m.counts);
  let active = sets.active;
  let deleted = 0;
  let createIndexes: number[] | undefined;
  if (isIndexed(job)) {
    const busy = job.spec?.podReplacementPolicy === 'Failed' ? indexesOf(sets.terminating) : new Set<number>();
    const plan = planIndexes(active, m.counts.completedIndexes ?? new Set(), job.spec?.completions ?? 0, Math.max(diff, 0), busy);
    if (plan.remove.length > 0) {
      await m.control.delete(m.key, job, plan.remove);
      deleted += plan.remove.length;
      active = active.filter((p) => !plan.remove.includes(p));
    }
    createIndexes = plan.create;
    if (diff > 0) diff = plan.create.length;
  }
  if (diff < 0) {
    const victims = byDeletionCost(active).slice(0, -diff);
    await m.control.delete(m.key, job, victims);
    return { active: active.length - victims.length, deleted: deleted + victims.length, requeueAfterMs: deadline };
  }
  if (diff === 0) return { active: active.length, deleted, requeueAfterMs: deadline };
  const wait = m.backoff.remainingMs(m.key, m.now);
  if (wait > 0) return { active: active.length, deleted, requeueAfterMs: minDefined(wait, deadline) };
  const created = await m.control.create(m.key, job, diff, createIndexes);
  return { active: active.length + created, deleted, requeueAfterMs: deadline };
}

function indexesOf(pods: Pod[]): Set<number> {
  const out = new Set<number>();
  for (const p of pods) {
    const i = podIndex(p);
    if (i !== undefined) out.add(i);
  }
  return out;
}

function minDefined(a: number, b: number | undefined): number {
  return b === undefined ? a : Math.min(a, b);
}
