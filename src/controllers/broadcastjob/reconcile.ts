/**
 * broadcastjob-controller (docs/design/jobs.md §3): one pod of the template per eligible node, at
 * most `parallelism` active at once; the job completes once every desired node has a finished pod
 * (completionPolicy Always), fails on a failed pod (FailFast) or its deadline, pauses (Pause or
 * spec.paused), and is deleted ttlSecondsAfterFinished after finishing.
 */
import type { Node, Pod, PodSpec } from '../../api/core/index.js';
import { DefaultBroadcastJobParallelism, type BroadcastJobStatus } from '../../api/kruise/ops/index.js';
import type { BroadcastJob } from './types.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import { rfc3339 } from '../../machinery/time.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { cachedOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { deadlineLeftMs, finish, isFinished, ttlLeftMs, writeStatus } from './job-status.js';
import { classifyPods, isComplete, planNodes, podsByNode, type NodePlan, type PodCounts } from './pod-plan.js';
import { createJobPods, deleteJobPods, type PodWriteContext } from './pod-writes.js';

export interface BroadcastJobDeps extends Omit<PodWriteContext, 'key'> {
  jobs: Informer<BroadcastJob>;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  statusWrites: ResourceVersionExpectations;
}

/** One pass's working state: the status being built and the requeue it asks for. */
interface Pass {
  job: BroadcastJob;
  key: string;
  now: number;
  status: BroadcastJobStatus;
  requeueMs?: number;
  /** A create that failed: thrown once the status is written (a rate-limited retry). */
  error?: unknown;
}

export class BroadcastJobReconciler {
  constructor(private readonly d: BroadcastJobDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const { key, object: job, result } = cachedOrRequeue(this.d.jobs, req, { scale: this.d.expectations, writes: this.d.statusWrites });
    if (!job) return result;
    const now = ctx.clock.now();
    if (isFinished(job)) return this.afterFinish(job, now);
    const pass: Pass = { job, key, now, status: structuredClone(job.status ?? {}) };
    pass.status.startTime ??= rfc3339(now);
    pass.status.phase ||= 'running';
    const deadline = deadlineLeftMs(job, pass.status.startTime, now);
    if (deadline !== undefined && deadline > 0) pass.requeueMs = deadline;
    await this.sync(pass);
    if (!deepEqual(pass.status, job.status ?? {})) {
      this.d.statusWrites.expectUpdated(key, await writeStatus(this.d.client, job, pass.status));
    }
    if (pass.error !== undefined) throw pass.error;
    return pass.requeueMs !== undefined ? { requeueAfterMs: pass.requeueMs } : undefined;
  }

  private async sync(p: Pass): Promise<void> {
    const { job, status } = p;
    const pods = this.d.pods.byIndex(IndexNames.controllerUid, job.metadata.uid!).filter((pod) => pod.metadata.ownerReferences?.some((r) => r.controller && r.kind === 'BroadcastJob'));
    const byNode = podsByNode(pods, (pod, node) => this.d.events.event(job, 'Warning', 'DuplicatePodCreatedOnSameNode', `Duplicated pod ${pod.metadata.name} found on same node ${node}`));
    const counts = classifyPods(pods, job.spec?.failurePolicy?.restartLimit ?? 0);
    const plan = planNodes(this.d.nodes.list(), (job.spec?.template as { spec?: PodSpec } | undefined)?.spec, byNode);
    Object.assign(status, { active: counts.active.length, failed: counts.failed.length, succeeded: counts.succeeded.length, desired: plan.desired.size });
    if (status.phase === 'failed') return;
    if (job.spec?.paused && (status.phase === 'running' || status.phase === 'paused')) {
      status.phase = 'paused';
      return;
    }
    if (status.phase === 'paused') {
      status.phase = 'running';
      this.d.events.event(job, 'Normal', 'Continue', 'continue to process job');
    }
    const failure = this.failureOf(p, counts);
    if (failure === 'paused') return;
    if (failure) await this.fail(p, counts.active, failure);
    else await this.run(p, plan, counts);
  }

  /** Why the job fails now, 'paused' for the Pause policy, or undefined to go on. */
  private failureOf(p: Pass, counts: PodCounts): { reason: string; message: string } | 'paused' | undefined {
    const { job, status } = p;
    if (counts.failed.length > 0) {
      const policy = job.spec?.failurePolicy?.type ?? 'FailFast';
      if (policy === 'Pause') {
        // upstream pauses in status only: spec.paused stays as the user wrote it
        this.d.events.event(job, 'Warning', 'Paused', 'job is paused, due to failed pod');
        status.phase = 'paused';
        return 'paused';
      }
      if (policy === 'FailFast') return { reason: 'failed pod is found', message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' };
    }
    const deadline = deadlineLeftMs(job, status.startTime!, p.now);
    if (deadline !== undefined && deadline <= 0) return { reason: 'DeadlineExceeded', message: `Job ${job.metadata.namespace}/${job.metadata.name} was active longer than specified deadline` };
    return undefined;
  }

  /** Deletes the active pods (each counted failed), then marks the job failed. */
  private async fail(p: Pass, active: Pod[], failure: { reason: string; message: string }): Promise<void> {
    const { deleted } = await deleteJobPods(this.ctx(p), p.job, active);
    p.status.failed! += deleted.length;
    p.status.active! -= deleted.length;
    p.status.phase = 'failed';
    p.requeueMs = finish(p.job, p.status, 'Failed', failure.message, p.now);
    this.d.events.event(p.job, 'Warning', failure.reason, `${failure.message}: ${p.status.succeeded} pods succeeded, ${p.status.failed} pods failed`);
  }

  private async run(p: Pass, plan: NodePlan, counts: PodCounts): Promise<void> {
    const { job, status } = p;
    if (plan.toDelete.length > 0) {
      const { deleted } = await deleteJobPods(this.ctx(p), job, plan.toDelete);
      // DEV: only an active pod moves from active to failed; a finished one keeps its count (upstream counts every deletion)
      const wasActive = deleted.filter((pod) => counts.active.includes(pod)).length;
      status.failed! += wasActive;
      status.active! -= wasActive;
    }
    if (!job.metadata.deletionTimestamp && plan.toRun.length > 0) await this.createPods(p, plan);
    if (job.spec?.completionPolicy?.type !== 'Never' && isComplete(plan)) {
      status.phase = 'completed';
      p.requeueMs = finish(job, status, 'Complete', `Job completed, ${status.succeeded} pods succeeded, ${status.failed} pods failed`, p.now);
      this.d.events.event(job, 'Normal', 'JobComplete', `Job ${job.metadata.namespace}/${job.metadata.name} is completed, ${status.succeeded} pods succeeded, ${status.failed} pods failed`);
    }
  }

  /** Up to parallelism (resolved against desired, rounded up) − active new pods. */
  private async createPods(p: Pass, plan: NodePlan): Promise<void> {
    const { job, status } = p;
    const parallelism = scaledValue(job.spec?.parallelism ?? DefaultBroadcastJobParallelism, plan.desired.size, true);
    if (status.active! > parallelism) {
      this.d.events.event(job, 'Warning', 'TooManyActivePods', 'Number of active pods exceed parallelism limit');
      return;
    }
    const count = Math.min(parallelism - status.active!, plan.toRun.length);
    if (count <= 0) return;
    const { created, error } = await createJobPods(this.ctx(p), job, plan.toRun.slice(0, count));
    status.active! += created;
    p.error = error;
  }

  private ctx(p: Pass): PodWriteContext {
    return { ...this.d, key: p.key };
  }

  /** Finished Always jobs wait for their TTL, then are deleted (their pods go by garbage collection). */
  private async afterFinish(job: BroadcastJob, now: number): Promise<Result | void> {
    const left = ttlLeftMs(job, now);
    if (left === undefined) return;
    if (left > 0) return { requeueAfterMs: left };
    try {
      await this.d.client.delete(BroadcastJobs, job.metadata.namespace, job.metadata.name!, { preconditions: { uid: job.metadata.uid } });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }
}
