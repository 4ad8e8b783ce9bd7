/**
 * The CronJob controller (batch/v1). Per sync: bring the active list in line with the Jobs that
 * exist, then, unless deleted, suspended or misconfigured, start the Job for the most recent missed
 * activation (honouring startingDeadlineSeconds and the concurrency policy), write status, prune
 * finished Jobs beyond the history limits, and requeue for the next activation on the injected clock.
 */
import { CronJobs, Jobs } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { ReconcileContext, Request, Result } from '../../../runtime/controller.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ResourceVersionExpectations } from '../../../runtime/expectations.js';
import { IndexNames } from '../../../runtime/indexers.js';
import { cachedOrRequeue } from '../../../runtime/reconcile.js';
import type { Informer } from '../../../runtime/informer.js';
import { parseCronSchedule, type CronSchedule } from '../../../machinery/cron.js';
import { isValidTimeZone } from '../../../machinery/time-zone.js';
import { jobsBeyondHistory, syncActive } from './job-history.js';
import { delayUntilNext, type ScheduleInput } from './schedule-times.js';
import { startDueJob } from './start-job.js';
import type { OwnedJob } from './types.js';
import { timeOf } from '../../../machinery/time.js';
import type { CronJob, CronJobStatus } from '../../../api/core/index.js';

export interface CronJobReconcilerOptions {
  client: Client;
  cronJobs: Informer<CronJob>;
  jobs: Informer<OwnedJob>;
  events: EventRecorder;
  statusWrites: ResourceVersionExpectations;
}

export class CronJobReconciler {
  constructor(private readonly o: CronJobReconcilerOptions) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const { key, object: cj, result } = cachedOrRequeue(this.o.cronJobs, req, { writes: this.o.statusWrites });
    if (!cj) return result ?? {};
    const jobs = this.o.jobs.byIndex(IndexNames.controllerUid, cj.metadata.uid!);
    const status = await this.syncActiveList(cj, jobs);
    const schedule = this.readSchedule(cj);
    if (!schedule || cj.metadata.deletionTimestamp || cj.spec?.suspend) {
      await this.writeStatus(key, cj, status);
      return {};
    }
    const now = ctx.clock.now();
    const input: ScheduleInput = {
      schedule, timeZone: cj.spec?.timeZone, createdAt: timeOf(cj.metadata.creationTimestamp) ?? now,
      lastScheduleTime: timeOf(status.lastScheduleTime), startingDeadlineSeconds: cj.spec?.startingDeadlineSeconds,
    };
    const started = await startDueJob({ client: this.o.client, events: this.o.events, cj, status, input, now });
    await this.writeStatus(key, cj, started);
    await this.cleanupHistory(cj, jobs);
    const next = delayUntilNext({ ...input, lastScheduleTime: timeOf(started.lastScheduleTime) }, now);
    return next === undefined ? {} : { requeueAfterMs: next };
  }

  private async syncActiveList(cj: CronJob, jobs: OwnedJob[]): Promise<CronJobStatus> {
    const { status, sawCompleted, unknown } = syncActive(cj.status ?? {}, jobs);
    for (const s of sawCompleted) this.o.events.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${s.name}, condition: ${s.condition}`);
    for (const name of unknown) {
      // The cache may simply lag behind a Job created moments ago: ask the server before dropping it.
      const gone = await this.o.client.get(Jobs, cj.metadata.namespace, name).then(() => false, (e: unknown) => {
        if (isNotFound(e)) return true;
        throw e;
      });
      if (!gone) continue;
      status.active = (status.active ?? []).filter((r) => r.name !== name);
      this.o.events.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${name}`);
    }
    return status;
  }

  private readSchedule(cj: CronJob): CronSchedule | undefined {
    const zone = cj.spec?.timeZone;
    if (!isValidTimeZone(zone)) {
      this.o.events.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${zone}": unknown time zone ${zone}`);
      return undefined;
    }
    try {
      return parseCronSchedule(cj.spec?.schedule ?? '');
    } catch (e) {
      this.o.events.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${cj.spec?.schedule}" : ${(e as Error).message}`);
      return undefined;
    }
  }

  private async writeStatus(key: string, cj: CronJob, status: CronJobStatus): Promise<void> {
    const next: CronJobStatus = { ...status };
    if (next.active?.length === 0) delete next.active;
    if (deepEqual(next, cj.status ?? {})) return;
    const written = await this.o.client.updateStatus(CronJobs, { ...cj, status: next });
    this.o.statusWrites.expectUpdated(key, written);
  }

  private async cleanupHistory(cj: CronJob, jobs: OwnedJob[]): Promise<void> {
    for (const job of jobsBeyondHistory(cj, jobs)) {
      try {
        await this.o.client.delete(Jobs, job.metadata.namespace, job.metadata.name!, { propagationPolicy: 'Background' });
        this.o.events.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
      } catch (e) {
        if (!isNotFound(e)) this.o.events.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(e as Error).message}`);
      }
    }
  }
}
