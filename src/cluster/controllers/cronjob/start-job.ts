/**
 * Starting the Job for a CronJob's most recent activation, or saying why not: nothing due yet, too
 * late for the starting deadline, already started, or a prior run still active under Forbid. Under
 * Replace the active Jobs are deleted first. Returns the status to write (active list and
 * lastScheduleTime).
 */
import { Jobs } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists, isNotFound } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import { controllerRef } from '../../../runtime/indexers.js';
import { formatRfc3339InZone } from '../../../machinery/time-zone.js';
import { newJobFor } from './job-history.js';
import { isTooLate, jobNameFor, mostRecentScheduleTime, tooManyMissed, type ScheduleInput } from './schedule-times.js';
import { jobFinishedAs, jobRef, type OwnedJob } from './types.js';
import { rfc3339 } from '../../../machinery/time.js';
import type { CronJob, CronJobStatus } from '../../../api/core/index.js';

export interface StartInput {
  client: Client;
  events: EventRecorder;
  cj: CronJob;
  status: CronJobStatus;
  input: ScheduleInput;
  now: number;
}

export async function startDueJob(s: StartInput): Promise<CronJobStatus> {
  const { cj, events } = s;
  const recent = mostRecentScheduleTime(s.input, s.now);
  if (recent.missed > tooManyMissed) {
    events.event(cj, 'Warning', 'TooManyMissedTimes', `too many missed start times: ${recent.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`);
  }
  const scheduled = recent.scheduled;
  if (scheduled === undefined) return s.status;
  if (isTooLate(scheduled, s.now, cj.spec?.startingDeadlineSeconds)) {
    events.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${formatRfc3339InZone(scheduled, cj.spec?.timeZone)}`);
    return s.status;
  }
  const name = jobNameFor(cj.metadata.name!, scheduled);
  const active = s.status.active ?? [];
  if (active.some((r) => r.name === name) || s.status.lastScheduleTime === rfc3339(scheduled)) return s.status;
  if (cj.spec?.concurrencyPolicy === 'Forbid' && active.length > 0) {
    events.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
    return s.status;
  }
  let status = s.status;
  if (cj.spec?.concurrencyPolicy === 'Replace') status = await replaceActive(s, status);
  const { job, created } = await createOrAdopt(s, newJobFor(cj, scheduled));
  if (!job) return status;
  if (created) events.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${job.metadata.name}`);
  const nextActive = jobFinishedAs(job) ? status.active ?? [] : [...(status.active ?? []).filter((r) => r.uid !== job.metadata.uid), jobRef(job)];
  return { ...status, active: nextActive, lastScheduleTime: rfc3339(scheduled) };
}

async function replaceActive(s: StartInput, status: CronJobStatus): Promise<CronJobStatus> {
  for (const ref of status.active ?? []) {
    try {
      await s.client.delete(Jobs, ref.namespace ?? s.cj.metadata.namespace, ref.name!, { propagationPolicy: 'Background' });
      s.events.event(s.cj, 'Normal', 'SuccessfulDelete', `Deleted job ${ref.name}`);
    } catch (e) {
      if (!isNotFound(e)) {
        s.events.event(s.cj, 'Warning', 'FailedDelete', `Deleted job: ${(e as Error).message}`);
        throw e;
      }
    }
  }
  return { ...status, active: [] };
}

/** Creates the Job; if it exists already (a retry after a lost status write), takes it when it is ours. */
async function createOrAdopt(s: StartInput, job: OwnedJob): Promise<{ job?: OwnedJob; created: boolean }> {
  try {
    return { job: await s.client.create<OwnedJob>(Jobs, job), created: true };
  } catch (e) {
    if (!isAlreadyExists(e)) {
      s.events.event(s.cj, 'Warning', 'FailedCreate', `Error creating job: ${(e as Error).message}`);
      throw e;
    }
  }
  const existing = await s.client.get<OwnedJob>(Jobs, job.metadata.namespace, job.metadata.name!);
  return { job: controllerRef(existing)?.uid === s.cj.metadata.uid ? existing : undefined, created: false };
}
