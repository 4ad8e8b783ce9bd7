/**
 * advancedcronjob-controller (docs/design/jobs.md §4): per pass, the status from the children
 * (written first), finished children beyond the history limits deleted, then, unless paused, the
 * child of the most recent missed fire time created (within startingDeadlineSeconds, after the
 * concurrency policy), and a requeue at the next fire time on the injected clock.
 */
import { AdvancedCronJobs } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import { timeOf } from '../../machinery/time.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { cachedOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { childKinds, newChild, templateKind, type ChildKind } from './children.js';
import { beyondHistory, sortChildren, statusFor, type Children } from './history.js';
import { dueRuns, earliestTime, readSchedule, tooLate, type ZonedSchedule } from './schedule.js';
import type { AdvancedCronJob, Child } from './types.js';

export interface AdvancedCronJobDeps {
  client: Client;
  cronJobs: Informer<AdvancedCronJob>;
  children: Record<ChildKind['kind'], Informer<Child>>;
  expectations: ScaleExpectations;
  statusWrites: ResourceVersionExpectations;
  events: EventRecorder;
}

export class AdvancedCronJobReconciler {
  constructor(private readonly d: AdvancedCronJobDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const { key, object: acj, result } = cachedOrRequeue(this.d.cronJobs, req, { scale: this.d.expectations, writes: this.d.statusWrites });
    if (!acj) return result;
    const kind = childKinds[templateKind(acj)];
    const children = sortChildren(this.d.children[kind.kind].byIndex(IndexNames.controllerUid, acj.metadata.uid!), kind.kind);
    const status = statusFor(acj, kind.kind, children);
    if (!deepEqual(status, acj.status ?? {})) {
      const written = await this.d.client.updateStatus<AdvancedCronJob>(AdvancedCronJobs, { ...acj, status });
      this.d.statusWrites.expectUpdated(key, written);
    }
    await this.deleteChildren(kind, beyondHistory(acj, children));
    if (acj.spec?.paused || acj.metadata.deletionTimestamp) return;
    const schedule = this.scheduleOf(acj, ctx);
    return schedule && this.runDue(ctx, { key, acj, kind, children, schedule, lastScheduleTime: timeOf(status.lastScheduleTime) });
  }

  private scheduleOf(acj: AdvancedCronJob, ctx: ReconcileContext): ZonedSchedule | undefined {
    try {
      return readSchedule(acj.spec?.schedule ?? '', acj.spec?.timeZone);
    } catch (e) {
      // no requeue: only a change of the schedule can help
      ctx.log.info({ err: (e as Error).message }, 'unparseable schedule');
      return undefined;
    }
  }

  private async runDue(ctx: ReconcileContext, p: { key: string; acj: AdvancedCronJob; kind: ChildKind; children: Children; schedule: ZonedSchedule; lastScheduleTime?: number }): Promise<Result | void> {
    const { acj, kind, children } = p;
    const now = ctx.clock.now();
    const deadline = acj.spec?.startingDeadlineSeconds;
    const due = dueRuns(p.schedule, earliestTime(p.lastScheduleTime, timeOf(acj.metadata.creationTimestamp) ?? now, now, deadline), now);
    if (due.tooMany) {
      ctx.log.info({}, 'too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew');
      return;
    }
    const requeue: Result = due.next === undefined ? {} : { requeueAfterMs: Math.max(1, due.next - now) };
    if (due.missed === undefined || tooLate(due.missed, now, deadline)) return requeue;
    const policy = acj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && children.active.length > 0) return requeue;
    if (policy === 'Replace') await this.deleteChildren(kind, children.active, true);
    await this.create(p.key, acj, newChild(acj, kind, due.missed, p.schedule.zone), kind);
    return requeue;
  }

  private async create(key: string, acj: AdvancedCronJob, child: Child, kind: ChildKind): Promise<void> {
    const name = child.metadata.name!;
    this.d.expectations.expect(key, 'create', name);
    try {
      await this.d.client.create(kind.type, child);
    } catch (e) {
      this.d.expectations.observe(key, 'create', name);
      // the name is the scheduled time: this run exists already (a cache behind a restart)
      if (isAlreadyExists(e)) return;
      this.d.events.event(acj, 'Warning', 'FailedCreate', `Error creating ${kind.kind} ${name}: ${(e as Error).message}`);
      throw e;
    }
  }

  /** Background deletion; best effort for history, but a failed Replace deletion is retried. */
  private async deleteChildren(kind: ChildKind, children: Child[], mustSucceed = false): Promise<void> {
    for (const child of children) {
      try {
        await this.d.client.delete(kind.type, child.metadata.namespace, child.metadata.name!, { propagationPolicy: 'Background', preconditions: { uid: child.metadata.uid } });
      } catch (e) {
        if (mustSucceed && !isNotFound(e)) throw e;
      }
    }
  }
}
