/**
 * The kubelet's worker for one pod (one uid): each sync reads the pod, decides the next runtime
 * actions, starts them, and writes the status if it changed. A pod past its activeDeadlineSeconds
 * is failed (§17); a terminal pod's containers are stopped. Deletion stops the containers within
 * the grace period, marks the pod terminal and deletes it with grace 0 and a uid precondition.
 */
import { Pods } from '../../api/resource-type.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { flush } from '../../machinery/clock.js';
import { killAllActions } from './kill-actions.js';
import { computePodActions } from './pod-actions.js';
import { activeDeadlineAt } from './pod-phase.js';
import { PodRuntime } from './pod-runtime.js';
import { computePodStatus, statusPatch, statusUpToDate, type OwnedStatus } from './pod-status.js';
import type { PodView } from './pod-view.js';
import { ViewBuilder } from './view-builder.js';
import type { WorkerContext } from './worker-context.js';
import type { Pod } from '../../api/core/index.js';

/** A view and when its probes next need a look. */
type Built = { view: PodView; wakeAt: number };

export class PodWorker {
  readonly uid: string;
  readonly runtime: PodRuntime;
  private readonly views: ViewBuilder;
  private pod: Pod;
  private deadline = Infinity;
  private deleteRequested = false;
  /** When the terminated pod's cleanup is done and the kubelet may remove it from the API. */
  private cleanedUpAt?: number;
  /** Our last status write and the resourceVersion it produced, laid over the cache until it catches up. */
  private lastWrite?: { rv?: string; status: OwnedStatus };

  constructor(private readonly ctx: WorkerContext, pod: Pod) {
    this.uid = pod.metadata.uid!;
    this.pod = pod;
    this.runtime = new PodRuntime(ctx, () => this.pod);
    this.views = new ViewBuilder(ctx, this.runtime, () => this.pod);
  }

  get namespace(): string {
    return this.pod.metadata.namespace ?? 'default';
  }

  get name(): string {
    return this.pod.metadata.name!;
  }

  /** One sync; returns when to sync again (ms from now) if a timer is due. */
  async sync(pod: Pod): Promise<number | undefined> {
    this.pod = pod;
    if (this.deleteRequested) return undefined; // waiting for finalizers to let the object go
    const now = this.ctx.clock.now();
    let wakeAt = Infinity;
    const first = this.view(now);
    const { view } = first;
    const phase = view.pod.status?.phase;
    let latest: Built | undefined;
    if (pod.metadata.deletionTimestamp) {
      if (await this.terminate(now)) return undefined;
      // terminated, status written: only the final removal is left, once cleanup is done
      if (this.cleanedUpAt !== undefined) return Math.max(1, this.cleanedUpAt - this.ctx.clock.now());
      wakeAt = this.deadline;
    } else if (phase === 'Succeeded' || phase === 'Failed' || now >= activeDeadlineAt(view)) {
      this.runtime.stopping = true; // a terminal phase is final, whoever wrote it
      this.runtime.execute(killAllActions(view));
      if (this.runtime.quiet()) await this.runtime.stopSandbox();
    } else {
      const advanced = await this.advance(first);
      wakeAt = Math.min(advanced.wakeAt, activeDeadlineAt(view));
      latest = advanced.unchanged;
    }
    latest ??= this.view(this.ctx.clock.now());
    await this.writeStatus(latest.view);
    const next = Math.min(wakeAt, latest.wakeAt, this.runtime.killer.nextWakeAt());
    return Number.isFinite(next) ? Math.max(1, next - this.ctx.clock.now()) : undefined;
  }

  /**
   * Runs the plan, and again while it makes progress within one turn of the event loop (an instant
   * runtime finishes a step in microtasks), so a zero-delay pod reaches Running in one status write.
   */
  private async advance(first: Built): Promise<{ wakeAt: number; unchanged?: Built }> {
    // the first round plans on the sync's own view while nothing ran and no time passed since (§24)
    const now = () => this.ctx.clock.now();
    let current: Built | undefined = first.view.now === now() ? first : undefined;
    let wakeAt = Infinity;
    for (let round = 0; round < 4; round++) {
      current ??= this.view(now());
      const plan = computePodActions(current.view);
      wakeAt = plan.wakeAt ?? Infinity;
      if (plan.actions.length === 0) return { wakeAt, unchanged: current.view.now === now() ? current : undefined };
      this.runtime.execute(plan.actions);
      current = undefined;
      await flush();
    }
    return { wakeAt };
  }

  /** Stops containers within the grace period; once all are down, finishes the deletion. True when done. */
  private async terminate(now: number): Promise<boolean> {
    this.runtime.stopping = true;
    const { metadata, spec } = this.pod;
    const grace = Math.max(0, metadata.deletionGracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30);
    this.deadline = Math.min(this.deadline, now + grace * 1000);
    const left = Math.max(0, (this.deadline - now) / 1000);
    this.runtime.execute(killAllActions(this.view(now).view, left));
    if (!this.runtime.quiet()) return false;
    if (this.cleanedUpAt === undefined) {
      await this.runtime.stopSandbox();
      await this.writeStatus(this.view(this.ctx.clock.now()).view, true);
      this.cleanedUpAt = this.ctx.clock.now() + this.ctx.podCleanupDelayMs;
    }
    if (this.ctx.clock.now() < this.cleanedUpAt) return false;
    try {
      await this.ctx.client.delete(Pods, metadata.namespace, metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
    this.deleteRequested = true;
    return true;
  }

  /**
   * Whether `pod` is the object our last status write produced (its resourceVersion): nothing but
   * that write changed since the pod we synced on, so the pod becomes the one last seen, no sync.
   */
  takeEcho(pod: Pod): boolean {
    const rv = pod.metadata.resourceVersion;
    if (rv === undefined || rv !== this.lastWrite?.rv || this.deleteRequested) return false;
    this.pod = pod;
    return true;
  }

  /** The pod is gone from the API (or replaced by a new uid): kill and remove everything. */
  async teardown(): Promise<void> {
    await this.runtime.teardown();
    this.ctx.overrides.clearPod(this.pod.metadata.namespace ?? 'default', this.pod.metadata.name!);
  }

  /** The pod as last seen, with our last status write laid over it while the cache lags behind. */
  private effectivePod(): Pod {
    const w = this.lastWrite;
    if (w && cacheCaughtUp(this.pod.metadata.resourceVersion, w.rv)) this.lastWrite = undefined;
    if (!this.lastWrite || !w) return this.pod;
    const others = (this.pod.status?.conditions ?? []).filter((c) => !w.status.conditions.some((o) => o.type === c.type));
    return { ...this.pod, status: { ...this.pod.status, ...w.status, conditions: [...others, ...w.status.conditions] } };
  }

  private view(now: number): Built {
    return this.views.build(this.effectivePod(), now);
  }

  private async writeStatus(view: PodView, terminated = false): Promise<void> {
    const desired = computePodStatus(view, terminated);
    if (statusUpToDate(view.pod.status, desired)) return;
    const { namespace, name } = this.pod.metadata;
    try {
      const written = await this.ctx.client.patch<Pod>(Pods, namespace, name!, 'strategic', statusPatch(this.uid, desired), { subresource: 'status' });
      this.lastWrite = { rv: written.metadata.resourceVersion, status: desired };
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e; // gone or replaced: its delete event follows
    }
  }
}

/**
 * Whether the cached object already includes our write. Resource versions are opaque to clients,
 * but every server we target (etcd, ours) issues increasing integers; anything else counts as
 * caught up only at the written version itself.
 */
function cacheCaughtUp(cached: string | undefined, written: string | undefined): boolean {
  if (!cached || !written) return true;
  if (/^\d+$/.test(cached) && /^\d+$/.test(written)) return BigInt(cached) >= BigInt(written);
  return cached === written;
}
