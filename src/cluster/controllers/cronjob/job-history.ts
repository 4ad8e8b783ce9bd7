/**
 * The CronJob's view of its Jobs, as pure functions: the Job to create for an activation, the active
 * list brought in line with the Jobs that exist (finished ones leave it, running strays join it),
 * lastSuccessfulTime from completed Jobs, and which finished Jobs fall outside the history limits.
 */
import { clone } from '../../../machinery/deep-equal.js';
import { newControllerRef } from '../../../control/ownership/index.js';
import { formatRfc3339InZone } from '../../../machinery/time-zone.js';
import { jobNameFor } from './schedule-times.js';
import { jobFinishedAs, jobRef, scheduledTimestampAnnotation, type OwnedJob } from './types.js';
import { timeOf } from '../../../machinery/time.js';
import type { CronJob, CronJobStatus } from '../../../api/core/index.js';
import { byName } from '../../../machinery/order.js';

/** The Job for the activation at `scheduled`: the template, owned by the CronJob, named by the minute. */
export function newJobFor(cj: CronJob, scheduled: number): OwnedJob {
  const template = clone(cj.spec?.jobTemplate ?? {});
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: {
      name: jobNameFor(cj.metadata.name!, scheduled),
      namespace: cj.metadata.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [scheduledTimestampAnnotation]: formatRfc3339InZone(scheduled, cj.spec?.timeZone) },
      ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
    },
    spec: template.spec ?? { template: { spec: { containers: [] } } },
  };
}

export interface ActiveSync {
  status: CronJobStatus;
  /** Finished Jobs that just left the active list, for SawCompletedJob events. */
  sawCompleted: { name: string; condition: string }[];
  /** Active references whose Job is not in the cache (verify with a GET before dropping them). */
  unknown: string[];
}

export function syncActive(status: CronJobStatus, jobs: OwnedJob[]): ActiveSync {
  const byUid = new Map(jobs.map((j) => [j.metadata.uid, j]));
  const active = [...(status.active ?? [])];
  const sawCompleted: ActiveSync['sawCompleted'] = [];
  let lastSuccessfulTime = status.lastSuccessfulTime;
  const lastSchedule = timeOf(status.lastScheduleTime);
  for (const job of jobs) {
    const listed = active.some((r) => r.uid === job.metadata.uid);
    const finished = jobFinishedAs(job);
    if (listed && finished) {
      active.splice(active.findIndex((r) => r.uid === job.metadata.uid), 1);
      sawCompleted.push({ name: job.metadata.name!, condition: finished });
    } else if (!listed && !finished && !job.metadata.deletionTimestamp && startedAfter(job, lastSchedule)) {
      active.push(jobRef(job));
    }
    const completedAt = finished === 'Complete' ? job.status?.completionTime : undefined;
    if (completedAt && (timeOf(completedAt) ?? 0) > (timeOf(lastSuccessfulTime) ?? -Infinity)) lastSuccessfulTime = completedAt;
  }
  const unknown = active.filter((r) => !byUid.has(r.uid)).map((r) => r.name!);
  const next: CronJobStatus = { ...status, active };
  if (lastSuccessfulTime) next.lastSuccessfulTime = lastSuccessfulTime;
  return { status: next, sawCompleted, unknown };
}

/** Upstream adopts only running Jobs scheduled no earlier than the last schedule it recorded. */
function startedAfter(job: OwnedJob, lastSchedule: number | undefined): boolean {
  const scheduled = timeOf(job.metadata.annotations?.[scheduledTimestampAnnotation]);
  return lastSchedule === undefined || scheduled === undefined || scheduled >= lastSchedule;
}

/** Finished Jobs beyond the successful/failed history limits, oldest start first (unset limits keep all). */
export function jobsBeyondHistory(cj: CronJob, jobs: OwnedJob[]): OwnedJob[] {
  const pick = (as: string, limit: number | undefined) => {
    if (limit === undefined || limit === null) return [];
    const finished = jobs.filter((j) => jobFinishedAs(j) === as && !j.metadata.deletionTimestamp).sort(byStartTime);
    return finished.slice(0, Math.max(0, finished.length - limit));
  };
  return [...pick('Complete', cj.spec?.successfulJobsHistoryLimit), ...pick('Failed', cj.spec?.failedJobsHistoryLimit)];
}

/** Oldest start first; Jobs that never started sort last, then by name. */
function byStartTime(a: OwnedJob, b: OwnedJob): number {
  const ta = timeOf(a.status?.startTime);
  const tb = timeOf(b.status?.startTime);
  if (ta === undefined && tb !== undefined) return 1;
  if (tb === undefined && ta !== undefined) return -1;
  if (ta !== undefined && tb !== undefined && ta !== tb) return ta - tb;
  return byName(a, b);
}
