/**
 * imagepulljob-controller (docs/design/image-pulling.md §4): writes the job's image into the
 * NodeImages of its target nodes, at most `parallelism` nodes pulling at a time, and sums what
 * the daemons report into the job's status. Secrets go to the daemons as copies (pull-secrets.ts).
 */
import type { Pod } from '../../api/core/index.js';
import { ImagePullJobProtectionFinalizer } from '../../api/kruise/ops/imagepulljob.js';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import type { ImagePullJobObject as Job, NodeImageObject } from '../../control/imagejob/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { rfc3339, timeOf } from '../../machinery/time.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { deadlineStatus, MessageCompleted, parallelismOf, runningStatus, type JobStatus } from './job-status.js';
import { nodeState, type NodeState, type SecretRef } from './node-image-tag.js';
import type { NodeImageWriter } from './node-image-writer.js';
import type { PullSecretCopies } from './pull-secrets.js';
import { selectTargets } from './targets.js';

export interface ImagePullJobDeps {
  client: Client;
  jobs: Informer<Job>;
  nodeImages: Informer<NodeImageObject>;
  pods: Informer<Pod>;
  secrets: PullSecretCopies;
  nodeImageWriter: NodeImageWriter;
  writes: ResourceVersionExpectations;
  events: EventRecorder;
}

/** Waiting for our own job writes to show up in the cache (their events also wake us). */
const observeWaitMs = 5_000;
const writeConcurrency = 16;

export class ImagePullJobReconciler {
  constructor(private readonly d: ImagePullJobDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const job = this.d.jobs.get(req.namespace, req.name);
    if (!job || !this.d.writes.isUpdatedSatisfied(`job/${req.namespace}/${req.name}`, job)) return job ? { requeueAfterMs: observeWaitMs } : undefined;
    if (job.metadata.deletionTimestamp) return this.finish(job);
    const now = ctx.clock.now();
    if (job.status?.completionTime) return this.completed(job, now);
    if (!job.metadata.finalizers?.includes(ImagePullJobProtectionFinalizer)) {
      const updated = await this.d.client.update<Job>(ImagePullJobs, { ...job, metadata: { ...job.metadata, finalizers: [...(job.metadata.finalizers ?? []), ImagePullJobProtectionFinalizer] } });
      this.d.writes.expectUpdated(`job/${req.namespace}/${req.name}`, updated);
      return;
    }
    const targets = selectTargets(job, this.d.nodeImages, this.d.pods).map((t) => this.d.nodeImageWriter.latest(t.metadata.name!) ?? t);
    const { refs, missing } = await this.d.secrets.sync(job);
    if (missing.length > 0) this.d.events.event(job, 'Warning', 'PullSecretNotFound', `pull secrets ${missing.join(', ')} not found in namespace ${job.metadata.namespace}: pulling without them`);
    const states = new Map<string, NodeState>(targets.map((t) => [t.metadata.name!, nodeState(t, job, refs)]));
    const startTime = job.status?.startTime ?? rfc3339(now);
    const cp = job.spec?.completionPolicy;
    const deadlineAt = cp?.type !== 'Never' && cp?.activeDeadlineSeconds !== undefined ? timeOf(startTime)! + cp.activeDeadlineSeconds * 1000 : undefined;
    let status: JobStatus;
    if (deadlineAt !== undefined && now >= deadlineAt) {
      status = deadlineStatus(runningStatus(startTime, states), states, rfc3339(now));
    } else {
      await this.syncNodes(job, targets, states, refs, now);
      status = runningStatus(startTime, states);
      if (cp?.type !== 'Never' && status.succeeded! + status.failed! === status.desired) status = { ...status, completionTime: rfc3339(now), message: MessageCompleted };
    }
    if (!deepEqual(status, job.status ?? {})) {
      const written = await this.d.client.updateStatus<Job>(ImagePullJobs, { ...job, status });
      this.d.writes.expectUpdated(`job/${req.namespace}/${req.name}`, written);
      return;
    }
    return deadlineAt !== undefined ? { requeueAfterMs: Math.max(1000, deadlineAt - now) } : undefined;
  }

  /** Hands the image to up to parallelism − active more nodes. */
  private async syncNodes(job: Job, targets: NodeImageObject[], states: Map<string, NodeState>, refs: SecretRef[], now: number): Promise<void> {
    const active = [...states.values()].filter((s) => s === 'pulling').length;
    const room = parallelismOf(job) - active;
    const waiting = targets.filter((t) => states.get(t.metadata.name!) === 'notSynced').slice(0, Math.max(0, room));
    // a few writes in flight at once: each passes the NodeImage webhooks, and a hundred nodes in a row would take seconds
    for (let i = 0; i < waiting.length; i += writeConcurrency) {
      await Promise.all(waiting.slice(i, i + writeConcurrency).map(async (target) => {
        await this.d.nodeImageWriter.addJob(target.metadata.name!, job, refs, now);
        states.set(target.metadata.name!, 'pulling');
      }));
    }
  }

  /** Finished: secrets released and the finalizer dropped, then deleted once the TTL is over. */
  private async completed(job: Job, now: number): Promise<Result | void> {
    await this.finish(job);
    const ttl = job.spec?.completionPolicy?.ttlSecondsAfterFinished;
    if (ttl === undefined || ttl === null) return;
    const left = timeOf(job.status!.completionTime)! + ttl * 1000 - now;
    if (left > 0) return { requeueAfterMs: left };
    await this.delete(job);
  }

  private async finish(job: Job): Promise<void> {
    await this.d.secrets.release(job);
    await this.removeFinalizer(job);
  }

  private async removeFinalizer(job: Job): Promise<void> {
    if (!job.metadata.finalizers?.includes(ImagePullJobProtectionFinalizer)) return;
    const finalizers = job.metadata.finalizers.filter((f) => f !== ImagePullJobProtectionFinalizer);
    try {
      const written = await this.d.client.update<Job>(ImagePullJobs, { ...job, metadata: { ...job.metadata, finalizers } });
      this.d.writes.expectUpdated(`job/${job.metadata.namespace}/${job.metadata.name}`, written);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  private async delete(job: Job): Promise<void> {
    try {
      await this.d.client.delete(ImagePullJobs, job.metadata.namespace, job.metadata.name!, { preconditions: { uid: job.metadata.uid }, propagationPolicy: 'Background' });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }
}
