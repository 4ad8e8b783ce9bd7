/**
 * The in-place updater over a Client (upstream inplaceupdate.Interface): `update` marks the pod
 * not-ready through the status subresource, then writes revision, state and the new images in one
 * update on top of what that write returned. The first try starts from the caller's pod (its
 * informer cache, as upstream's cached client reads); after a conflict the pod is re-read from
 * the API server and both steps are retried. `refresh` carries out planRefresh's decision; when
 * that is the `InPlaceUpdateReady=True` write, the caller's onReady may change the pod first, so
 * its own move (a lifecycle state, a label) rides on the same pods/status write. The clock is injected.
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict, type RetryOptions } from '../../client/retry.js';
import { calculateInPlaceUpdateSpec } from './calculate-spec.js';
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { hasInPlaceReadinessGate, markInPlaceUpdateStarted, podCondition } from './conditions.js';
import { preparePodUpdate } from './patch-pod.js';
import { readyStatusPatch } from './ready-write.js';
import { planRefresh, type RefreshOptions } from './refresh.js';
import { resizeNeedsRestart } from './resources.js';
import type { InPlaceUpdateOptions, UpdateSpec } from './types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export interface InPlaceUpdaterOptions extends RefreshOptions {
  now?: () => Date;
  retry?: RetryOptions;
  /** The feature-gate switches every update of this updater uses (a call's own options win). */
  gated?: Pick<InPlaceUpdateOptions, 'envFromMetadata' | 'verticalScaling'>;
}

export interface UpdateResult {
  /** The change could be done in place (false: the caller must recreate the pod). */
  inPlaceUpdate: boolean;
  error?: unknown;
  /** Requeue after the grace period. */
  requeueAfterMs?: number;
  newResourceVersion?: string;
  /** `admit` said no: nothing was written. */
  refused?: boolean;
}

export interface RefreshResult {
  error?: unknown;
  requeueAfterMs?: number;
  /** The pod's resourceVersion after a write. */
  newResourceVersion?: string;
  /** The pod as written, when the write was `InPlaceUpdateReady=True` (onReady's changes included). */
  pod?: Pod;
}

export interface ReadyWriteOptions {
  /**
   * Changes to the pod that ride on the `InPlaceUpdateReady=True` write: labels, annotations,
   * conditions (pods/status takes them all). Called on the copy about to be written, and only when
   * the write is that one.
   */
  onReady?: (pod: Pod) => void;
}

/** Traffic must drain first: the pod has the gate, and the change is not a resize that needs no restart. */
export function podNeedsUnready(pod: Pod, spec: UpdateSpec): boolean {
  if (!hasInPlaceReadinessGate(pod)) return false;
  const resizeOnly = Object.keys(spec.containerResources).length > 0 && Object.keys(spec.containerImages).length === 0 && !spec.updateEnvFromMetadata;
  if (!resizeOnly) return true;
  return pod.spec.containers.some((c) => spec.containerResources[c.name] && resizeNeedsRestart(c, spec.containerResources[c.name]));
}

export class InPlaceUpdater {
  private readonly now: () => Date;

  constructor(private readonly client: Client, private readonly options: InPlaceUpdaterOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  canUpdateInPlace(oldRevision: ControllerRevision | undefined, newRevision: ControllerRevision | undefined, opts: InPlaceUpdateOptions = {}): boolean {
    return calculateInPlaceUpdateSpec(oldRevision, newRevision, { ...this.options.gated, ...opts }) !== undefined;
  }

  private get(pod: Pod): Promise<Pod> {
    return this.client.get<Pod>(Pods, pod.metadata.namespace, pod.metadata.name ?? '');
  }

  async update(pod: Pod, oldRevision: ControllerRevision | undefined, newRevision: ControllerRevision | undefined, callOpts: InPlaceUpdateOptions = {}): Promise<UpdateResult> {
    const opts = { ...this.options.gated, ...callOpts };
    const spec = calculateInPlaceUpdateSpec(oldRevision, newRevision, opts);
    if (!spec) return { inPlaceUpdate: false };
    try {
      let base: Pod | undefined = pod;
      const updated = await retryOnConflict(async () => {
        let current = base ?? (await this.get(pod));
        base = undefined; // a retry means a conflict: read the pod afresh
        if (opts.admit && !(await opts.admit(current))) return undefined;
        const marked = podNeedsUnready(current, spec) ? markInPlaceUpdateStarted(current, this.now()) : undefined;
        if (marked) current = await this.client.updateStatus(Pods, marked);
        return this.client.update(Pods, preparePodUpdate(current, { spec, now: this.now(), options: opts }));
      }, this.options.retry);
      if (!updated) return { inPlaceUpdate: true, refused: true };
      const requeueAfterMs = spec.graceSeconds > 0 ? spec.graceSeconds * 1000 : undefined;
      return { inPlaceUpdate: true, requeueAfterMs, newResourceVersion: updated.metadata.resourceVersion };
    } catch (error) {
      return { inPlaceUpdate: true, error };
    }
  }

  /**
   * A pod with the gate but no `InPlaceUpdateReady` condition and no in-place work pending (a new
   * pod) gets it True through a strategic-merge patch of its status: nothing is in flight to
   * observe, so unlike the False-to-True flip the write needs no resourceVersion precondition, and
   * a pod that kubelet and scheduler are busy writing is not retried into a conflict storm. Only
   * when onReady changes another condition is the pod written whole, for the observed version.
   */
  async markReadyIfMissing(pod: Pod, opts: ReadyWriteOptions = {}): Promise<RefreshResult> {
    const plan = planRefresh(pod, this.now(), this.options);
    if (plan.kind !== 'updateStatus' || podCondition(pod, InPlaceUpdateReadyCondition)) return {};
    try {
      opts.onReady?.(plan.pod);
      const patch = readyStatusPatch(pod, plan.pod);
      const written = patch
        ? await this.client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name ?? '', 'strategic', patch, { subresource: 'status' })
        : await this.client.updateStatus(Pods, plan.pod);
      return { newResourceVersion: written.metadata.resourceVersion, pod: written };
    } catch (error) {
      return { error };
    }
  }

  async refresh(pod: Pod, opts: ReadyWriteOptions = {}): Promise<RefreshResult> {
    try {
      const plan = planRefresh(pod, this.now(), this.options);
      if (plan.kind === 'none') return { requeueAfterMs: plan.requeueAfterMs };
      // the condition is written for the observed pod version only: no retry (upstream #2274)
      if (plan.kind === 'updateStatus') {
        opts.onReady?.(plan.pod);
        const written = await this.client.updateStatus(Pods, plan.pod);
        return { newResourceVersion: written.metadata.resourceVersion, pod: written };
      }
      let requeueAfterMs: number | undefined;
      let newResourceVersion: string | undefined;
      await retryOnConflict(async () => {
        const fresh = planRefresh(await this.get(pod), this.now(), this.options);
        requeueAfterMs = fresh.kind === 'none' ? fresh.requeueAfterMs : undefined;
        if (fresh.kind === 'update') newResourceVersion = (await this.client.update(Pods, fresh.pod)).metadata.resourceVersion;
      }, this.options.retry);
      return { requeueAfterMs, ...(newResourceVersion && { newResourceVersion }) };
    } catch (error) {
      return { error };
    }
  }
}
