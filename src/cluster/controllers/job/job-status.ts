/**
 * Job status pieces: conditions (with lastProbeTime, as the Job controller writes them), the
 * suspend/resume transition, and the terminal Complete/Failed condition that follows a
 * SuccessCriteriaMet/FailureTarget condition once no pod is left running or unaccounted.
 */
import type { Target } from './job-budget.js';
import { jobCondition } from './types.js';
import { rfc3339 } from '../../../machinery/time.js';
import type { Job, JobCondition, JobStatus } from '../../../api/core/index.js';

export function newJobCondition(type: string, status: 'True' | 'False', reason: string, message: string, now: number): JobCondition {
  const at = rfc3339(now);
  return { type, status, lastProbeTime: at, lastTransitionTime: at, reason, message };
}

/** Replaces the condition of the same type unless status, reason and message are unchanged. */
export function setJobCondition(conditions: JobCondition[] | undefined, c: JobCondition): JobCondition[] {
  const list = conditions ?? [];
  const i = list.findIndex((x) => x.type === c.type);
  const old = i < 0 ? undefined : list[i]!;
  if (old && old.status === c.status && old.reason === c.reason && old.message === c.message) return list;
  const next = old && old.status === c.status ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
  return i < 0 ? [...list, next] : list.map((x, j) => (j === i ? next : x));
}

/** The interim target already recorded in status (FailureTarget wins over SuccessCriteriaMet). */
export function recordedTarget(job: Job): Target | undefined {
  const c = jobCondition(job, 'FailureTarget') ?? jobCondition(job, 'SuccessCriteriaMet');
  return c ? { type: c.type, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

export type SuspendChange = 'suspended' | 'resumed' | undefined;

/** Suspended condition and startTime as suspend flips; startTime restarts the deadline on resume. */
export function applySuspend(job: Job, status: JobStatus, now: number): { status: JobStatus; change: SuspendChange } {
  const suspended = jobCondition(job, 'Suspended') !== undefined;
  if (job.spec?.suspend) {
    if (suspended) return { status, change: undefined };
    return { status: { ...status, conditions: setJobCondition(status.conditions, newJobCondition('Suspended', 'True', 'JobSuspended', 'Job suspended', now)) }, change: 'suspended' };
  }
  if (suspended) {
    const conditions = setJobCondition(status.conditions, newJobCondition('Suspended', 'False', 'JobResumed', 'Job resumed', now));
    return { status: { ...status, conditions, startTime: rfc3339(now) }, change: 'resumed' };
  }
  return { status: status.startTime ? status : { ...status, startTime: rfc3339(now) }, change: undefined };
}

/** Complete or Failed, once the target is set and nothing is left running or unaccounted. */
export function withTerminalCondition(status: JobStatus, target: Target | undefined, now: number): JobStatus {
  if (!target) return status;
  const u = status.uncountedTerminatedPods;
  if ((status.active ?? 0) > 0 || (status.terminating ?? 0) > 0 || (u?.succeeded?.length ?? 0) > 0 || (u?.failed?.length ?? 0) > 0) return status;
  const success = target.type === 'SuccessCriteriaMet';
  const conditions = setJobCondition(status.conditions, newJobCondition(success ? 'Complete' : 'Failed', 'True', target.reason, target.message, now));
  return success ? { ...status, conditions, completionTime: status.completionTime ?? rfc3339(now) } : { ...status, conditions };
}

/** The wire shape: empty uncounted lists are omitted, as Go's omitempty does. */
export function normalizeStatus(status: JobStatus): JobStatus {
  const u = status.uncountedTerminatedPods ?? {};
  const uncounted: JobStatus['uncountedTerminatedPods'] = {};
  if (u.succeeded?.length) uncounted.succeeded = u.succeeded;
  if (u.failed?.length) uncounted.failed = u.failed;
  const out: JobStatus = { ...status, uncountedTerminatedPods: uncounted };
  if (!out.completedIndexes) delete out.completedIndexes;
  return out;
}
