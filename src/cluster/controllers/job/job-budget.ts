/**
 * The Job's arithmetic, free of any client: how many pods should run, whether the failure budget
 * (backoffLimit, activeDeadlineSeconds) is spent, whether the success criteria are met, and how long
 * to wait before replacing failed pods (10 s doubling per consecutive failure, at most 10 minutes).
 */
import { isIndexed } from './types.js';
import { timeOf } from '../../../machinery/time.js';
import type { Job, JobCondition } from '../../../api/core/index.js';

export interface JobCounts {
  /** Counted in status, pending in uncountedTerminatedPods, and newly finished. */
  succeeded: number;
  failed: number;
  /** Running or pending pods that are not being deleted. */
  active: number;
  terminating: number;
  /** Container restarts of active pods (they count against backoffLimit with restartPolicy OnFailure). */
  restarts: number;
  /** Indexed Jobs: the completed indexes, new ones included. */
  completedIndexes?: Set<number>;
}

export type Target = Required<Pick<JobCondition, 'type' | 'reason' | 'message'>>;

export const backoffLimitExceeded: Target = { type: 'FailureTarget', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
export const deadlineExceeded: Target = { type: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
export const completionsReached: Target = { type: 'SuccessCriteriaMet', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };

export const podFailureBackoffMs = 10_000;
export const maxPodFailureBackoffMs = 10 * 60_000;

/** The terminal state the Job is heading to, if any: failures first, then success. */
export function terminalTarget(job: Job, c: JobCounts, now: number): Target | undefined {
  if (exceedsBackoffLimit(job, c)) return backoffLimitExceeded;
  if (!job.spec?.suspend && deadlineRemainingMs(job, now) === 0) return deadlineExceeded;
  if (successCriteriaMet(job, c)) return completionsReached;
  return undefined;
}

export function exceedsBackoffLimit(job: Job, c: JobCounts): boolean {
  const limit = job.spec?.backoffLimit ?? 6;
  if (c.failed > limit) return true;
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  return limit === 0 ? c.restarts > 0 : c.restarts >= limit;
}

/** Undefined without a deadline or start; 0 once it has passed; otherwise the ms left. */
export function deadlineRemainingMs(job: Job, now: number): number | undefined {
  const seconds = job.spec?.activeDeadlineSeconds;
  const start = timeOf(job.status?.startTime);
  if (seconds === undefined || seconds === null || start === undefined) return undefined;
  return Math.max(0, start + seconds * 1000 - now);
}

export function successCriteriaMet(job: Job, c: JobCounts): boolean {
  const completions = job.spec?.completions;
  if (completions === undefined || completions === null) return c.succeeded > 0 && c.active === 0;
  if (isIndexed(job)) return (c.completedIndexes?.size ?? 0) >= completions;
  return c.succeeded >= completions;
}

/** How many pods should be active now (never negative). */
export function wantActive(job: Job, c: JobCounts): number {
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (job.spec?.suspend) return 0;
  if (completions === undefined || completions === null) return c.succeeded > 0 ? Math.min(c.active, parallelism) : parallelism;
  const done = isIndexed(job) ? (c.completedIndexes?.size ?? 0) : c.succeeded;
  return Math.max(0, Math.min(parallelism, completions - done));
}

/** Pods to create (positive) or active pods to delete (negative). */
export function activeDiff(job: Job, c: JobCounts): number {
  const want = wantActive(job, c);
  // With podReplacementPolicy Failed, a terminating pod still holds its slot until it has failed.
  const holding = job.spec?.podReplacementPolicy === 'Failed' ? c.terminating : 0;
  if (c.active > want) return want - c.active;
  return Math.max(0, want - c.active - holding);
}

/** The pause before replacing pods after `failures` consecutive failures (none after a success). */
export function podBackoffDelayMs(failuresAfterLastSuccess: number): number {
  if (failuresAfterLastSuccess <= 0) return 0;
  const exponent = Math.min(failuresAfterLastSuccess - 1, 30);
  return Math.min(podFailureBackoffMs * 2 ** exponent, maxPodFailureBackoffMs);
}
