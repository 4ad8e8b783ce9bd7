/**
 * The Job controller (batch/v1). Per sync: count finished pods (job-tracking finalizer), decide the
 * terminal target (backoffLimit, activeDeadlineSeconds, completions), create or delete pods toward
 * parallelism (with the failed-pod backoff), then write status in two steps: finished pods recorded
 * as uncounted, then, with their finalizers released, moved into the counters; Complete/Failed once
 * nothing is left running.
 */
import { trackedByJobIndex } from './tracked-index.js';
import { Jobs } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import type { ReconcileContext, Request, Result } from '../../../runtime/controller.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../../runtime/expectations.js';
import { requestKey } from '../../../runtime/handlers.js';
import { controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { BackoffStore } from './backoff-store.js';
import { terminalTarget, type Target } from './job-budget.js';
import { hasTrackingFinalizer } from './job-pod.js';
import { applySuspend, newJobCondition, normalizeStatus, recordedTarget, setJobCondition, withTerminalCondition } from './job-status.js';
import { classifyPods, countsOf, flushUncounted, readyCount, recordUncounted, type PodSets } from './job-tracking.js';
import { manageActivePods } from './manage-pods.js';
import type { JobPodControl } from './pod-control.js';
import { formatIndexes } from './indexes.js';
import { finishedCondition, isIndexed } from './types.js';
import type { Pod, Job, JobStatus } from '../../../api/core/index.js';

export interface JobReconcilerOptions {
  client: Client;
  jobs: Informer<Job>;
  pods: Informer<Pod>;
  control: JobPodControl;
  expectations: ScaleExpectations;
  statusWrites: ResourceVersionExpectations;
  events: EventRecorder;
  backoff: BackoffStore;
}

export class JobReconciler {
  constructor(private readonly o: JobReconcilerOptions) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const job = this.o.jobs.get(req.namespace, req.name);
    await this.releaseOrphans(key, req, job);
    if (!job) return this.forget(key);
    if (!this.o.statusWrites.isUpdatedSatisfied(key, job)) return { requeueAfterMs: 1000 };
    const pods = this.o.pods.byIndex(IndexNames.controllerUid, job.metadata.uid!);
    if (finishedCondition(job)) {
      const { error } = await this.o.control.release(key, pods.filter(hasTrackingFinalizer));
      if (error) throw error;
      return {};
    }
    if (!this.o.expectations.satisfied(key)) return { requeueAfterMs: this.o.expectations.waitMs(key) };
    const now = ctx.clock.now();
    const sets = classifyPods(job, pods, this.o.control.releasing(key));
    this.o.backoff.observe(key, sets.newlyFinished, now);
    const counts = countsOf(job, sets);
    const target = recordedTarget(job) ?? terminalTarget(job, counts, now);
    const managed = await manageActivePods({ key, job, sets, counts, target, now, control: this.o.control, backoff: this.o.backoff });
    let status: JobStatus = { ...job.status, active: managed.active, ready: managed.deleted > 0 ? 0 : readyCount(sets.active), terminating: sets.terminating.length + managed.deleted };
    status = recordUncounted(status, sets.newlyFinished);
    if (isIndexed(job)) status.completedIndexes = formatIndexes(counts.completedIndexes ?? []);
    status = this.suspendOrTarget(key, job, status, target, now);
    const recorded = await this.writeStatus(key, job, status);
    await this.settle(key, recorded, sets, target, now);
    return { requeueAfterMs: managed.requeueAfterMs };
  }

  private suspendOrTarget(key: string, job: Job, status: JobStatus, target: Target | undefined, now: number): JobStatus {
    const { status: next, change } = applySuspend(job, status, now);
    if (change) this.o.backoff.delete(key); // pods stopped by a suspension are no reason to wait
    if (change === 'suspended') this.o.events.event(job, 'Normal', 'Suspended', 'Job suspended');
    if (change === 'resumed') this.o.events.event(job, 'Normal', 'Resumed', 'Job resumed');
    if (!target || recordedTarget(job)) return next;
    return { ...next, conditions: setJobCondition(next.conditions, newJobCondition(target.type, 'True', target.reason, target.message, now)) };
  }

  /** Releases finalizers of recorded pods, moves them into the counters, and adds Complete/Failed when due. */
  private async settle(key: string, job: Job, sets: PodSets, target: Target | undefined, now: number): Promise<void> {
    const status = job.status ?? {};
    const uncounted = [...(status.uncountedTerminatedPods?.succeeded ?? []), ...(status.uncountedTerminatedPods?.failed ?? [])];
    const recorded = new Set(uncounted);
    const { released, error } = await this.o.control.release(key, sets.holding.map((f) => f.pod).filter((p) => recorded.has(p.metadata.uid!)));
    const holding = new Set(sets.holding.map((f) => f.pod.metadata.uid));
    for (const uid of uncounted) if (!holding.has(uid)) released.add(uid); // gone, or released before
    const next = withTerminalCondition(flushUncounted(status, released), target, now);
    const finished = next.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    await this.writeStatus(key, job, next);
    if (finished && !finishedCondition(job)) {
      if (finished.type === 'Complete') this.o.events.event(job, 'Normal', 'Completed', 'Job completed');
      else this.o.events.event(job, 'Warning', finished.reason ?? 'Failed', finished.message ?? '');
    }
    if (error) throw error;
  }

  private async writeStatus(key: string, job: Job, status: JobStatus): Promise<Job> {
    const next = normalizeStatus(status);
    if (deepEqual(next, job.status ?? {})) return job;
    const written = await this.o.client.updateStatus<Job>(Jobs, { ...job, status: next });
    this.o.statusWrites.expectUpdated(key, written);
    return written;
  }

  /**
   * Pods whose Job is gone, was replaced under the same name, or that were orphaned (the garbage
   * collector strips the owner reference) must not keep the finalizer.
   */
  private async releaseOrphans(key: string, req: Request, job: Job | undefined): Promise<void> {
    const orphans = this.o.pods.byIndex(trackedByJobIndex, key).filter((pod) => {
      const ref = controllerRef(pod);
      return !ref || (ref.kind === 'Job' && ref.uid !== job?.metadata.uid);
    });
    if (orphans.length === 0) return;
    const { error } = await this.o.control.release(key, orphans);
    if (error) throw error;
  }

  private forget(key: string): Result {
    this.o.expectations.delete(key);
    this.o.statusWrites.delete(key);
    this.o.backoff.delete(key);
    return {};
  }
}
