/**
 * BroadcastJob status rules (docs/design/jobs.md §3): when a job is finished, when its deadline
 * and TTL fall, the Complete/Failed conditions and the status written through the status
 * subresource with a conflict retry (re-read, re-apply the status).
 */
import type { BroadcastJobStatus } from '../../api/kruise/ops/index.js';
import type { BroadcastJob } from './types.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { isConflict } from '../../machinery/errors.js';
import { rfc3339, timeOf } from '../../machinery/time.js';

export type JobConditionType = 'Complete' | 'Failed';

/** A Complete or Failed condition is True, and the job is not a Never job (those never finish). */
export function isFinished(job: BroadcastJob): boolean {
  if (job.spec?.completionPolicy?.type === 'Never') return false;
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** Ms until the TTL after finishing runs out (≤ 0: due); undefined without a TTL. */
export function ttlLeftMs(job: BroadcastJob, now: number): number | undefined {
  const ttl = job.spec?.completionPolicy?.ttlSecondsAfterFinished;
  const finishedAt = timeOf(job.status?.completionTime);
  if (ttl === undefined || ttl === null || finishedAt === undefined) return undefined;
  return finishedAt + ttl * 1000 - now;
}

/** Ms until activeDeadlineSeconds (counted from status.startTime) passes, for Always jobs that set it. */
export function deadlineLeftMs(job: BroadcastJob, startTime: string, now: number): number | undefined {
  const cp = job.spec?.completionPolicy;
  if (cp?.type === 'Never' || cp?.activeDeadlineSeconds === undefined || cp.activeDeadlineSeconds === null) return undefined;
  return timeOf(startTime)! + cp.activeDeadlineSeconds * 1000 - now;
}

/** Appends the condition and completionTime; returns the requeue that lets the TTL fire (ttl + 1 s). */
export function finish(job: BroadcastJob, status: BroadcastJobStatus, type: JobConditionType, message: string, now: number): number | undefined {
  const at = rfc3339(now);
  status.conditions = [...(status.conditions ?? []), { type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason: type, message }];
  status.completionTime = at;
  const ttl = job.spec?.completionPolicy?.ttlSecondsAfterFinished;
  return ttl === undefined || ttl === null ? undefined : (ttl + 1) * 1000;
}

/** Writes `status` over the latest copy of the job, re-reading it on a conflict (a few tries). */
export async function writeStatus(client: Client, job: BroadcastJob, status: BroadcastJobStatus): Promise<BroadcastJob> {
  let current = job;
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.updateStatus<BroadcastJob>(BroadcastJobs, { ...current, status });
    } catch (e) {
      if (!isConflict(e) || attempt >= 4) throw e;
      current = await client.get<BroadcastJob>(BroadcastJobs, job.metadata.namespace, job.metadata.name!);
    }
  }
}
