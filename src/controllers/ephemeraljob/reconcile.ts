/**
 * ephemeraljob-controller (docs/design/jobs.md §5): keeps its finalizer on the job, computes the
 * status from the target pods, and, unless paused, adds the template's ephemeral containers (through
 * pods/ephemeralcontainers) to up to parallelism − running more target pods; a finished job is
 * deleted ttlSecondsAfterFinished (default 1800) after completionTime.
 */
import type { Pod } from '../../api/core/index.js';
import { EphemeralJobs } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { slowStartBatch } from '../../control/podcontrol/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { timeOf } from '../../machinery/time.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import { cachedOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { computeStatus, podState } from './job-status.js';
import { containersFor, expectationNames, podsToInject, targetPods } from './targets.js';
import { EphemeralContainerFinalizer, type EphemeralJob, type EphemeralJobStatus } from './types.js';

export interface EphemeralJobDeps {
  client: Client;
  jobs: Informer<EphemeralJob>;
  pods: Informer<Pod>;
  expectations: ScaleExpectations;
  writes: ResourceVersionExpectations;
  events: EventRecorder;
}

const defaultTtlSeconds = 1800;

export class EphemeralJobReconciler {
  constructor(private readonly d: EphemeralJobDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const { key, object: job, result } = cachedOrRequeue(this.d.jobs, req, { scale: this.d.expectations, writes: this.d.writes });
    if (!job) return result;
    const hasFinalizer = job.metadata.finalizers?.includes(EphemeralContainerFinalizer) ?? false;
    // kube cannot remove ephemeral containers: deleting the job only drops the finalizer
    if (job.metadata.deletionTimestamp) return hasFinalizer ? this.setFinalizer(key, job, false) : undefined;
    if (!hasFinalizer) return this.setFinalizer(key, job, true);
    const now = ctx.clock.now();
    if (job.status?.completionTime) return this.afterFinish(key, job, now);
    const deadline = job.spec?.activeDeadlineSeconds;
    const startedAt = timeOf(job.status?.startTime) ?? now;
    const requeue: Result = deadline === undefined || deadline === null ? {} : { requeueAfterMs: Math.max(0, startedAt + deadline * 1000 - now) || 1 };
    const targets = targetPods(job, this.matchingPods(job));
    const status = computeStatus(job, job.status ?? {}, targets, now);
    let error: unknown;
    if (status.phase !== 'Paused' && !status.completionTime) error = await this.inject(key, job, targets);
    await this.writeStatus(key, job, status);
    if (error !== undefined) throw error;
    return requeue;
  }

  private matchingPods(job: EphemeralJob): Pod[] {
    // an empty selector selects every pod of the namespace, as upstream's
    const selector = selectorFromLabelSelector(job.spec?.selector as MetaLabelSelector);
    return this.d.pods.byIndex('namespace', job.metadata.namespace!).filter((p) => selector.matches(p.metadata.labels));
  }

  /**
   * Up to parallelism − in flight more pods get the containers, in slow-start batches. DEV: in flight
   * counts pods whose injected containers have not started yet, which upstream (running only) misses,
   * so a slow start let it exceed parallelism.
   */
  private async inject(key: string, job: EphemeralJob, targets: Pod[]): Promise<unknown> {
    const pending = podsToInject(job, targets);
    const inFlight = targets.filter((p) => !pending.includes(p) && ['running', 'waiting'].includes(podState(job, p))).length;
    const room = Math.min((job.spec?.parallelism ?? 1) - inFlight, pending.length);
    if (room <= 0) return undefined;
    const batch = pending.slice(0, room);
    const { error } = await slowStartBatch(batch.length, 1, (i) => this.injectInto(key, job, batch[i]!));
    if (error !== undefined) this.d.events.event(job, 'Warning', 'CreateFailed', (error as Error).message);
    return error;
  }

  private async injectInto(key: string, job: EphemeralJob, pod: Pod): Promise<void> {
    const names = expectationNames(job, pod);
    for (const n of names) this.d.expectations.expect(key, 'create', n);
    try {
      await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { spec: { ephemeralContainers: containersFor(job) } }, { subresource: 'ephemeralcontainers' });
    } catch (e) {
      for (const n of names) this.d.expectations.observe(key, 'create', n);
      throw new Error(`failed to create ephemeral container in pod ${pod.metadata.namespace}/${pod.metadata.name}: ${(e as Error).message}`);
    }
  }

  private async writeStatus(key: string, job: EphemeralJob, status: EphemeralJobStatus): Promise<void> {
    if (deepEqual(status, job.status ?? {})) return;
    this.d.writes.expectUpdated(key, await this.d.client.updateStatus<EphemeralJob>(EphemeralJobs, { ...job, status }));
  }

  private async setFinalizer(key: string, job: EphemeralJob, on: boolean): Promise<void> {
    const others = (job.metadata.finalizers ?? []).filter((f) => f !== EphemeralContainerFinalizer);
    const finalizers = on ? [...others, EphemeralContainerFinalizer] : others;
    try {
      this.d.writes.expectUpdated(key, await this.d.client.update<EphemeralJob>(EphemeralJobs, { ...job, metadata: { ...job.metadata, finalizers } }));
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  private async afterFinish(key: string, job: EphemeralJob, now: number): Promise<Result | void> {
    const ttl = job.spec?.ttlSecondsAfterFinished ?? defaultTtlSeconds;
    const left = timeOf(job.status!.completionTime)! + ttl * 1000 - now;
    if (left > 0) return { requeueAfterMs: left };
    try {
      await this.d.client.delete(EphemeralJobs, job.metadata.namespace, job.metadata.name!, { preconditions: { uid: job.metadata.uid } });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
    this.d.expectations.delete(key);
  }
}
