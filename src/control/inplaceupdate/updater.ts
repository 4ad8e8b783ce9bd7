/**
 * The in-place updater over a Client (upstream inplaceupdate.Interface): `update` marks the pod
 * not-ready through the status subresource, then re-reads it and writes revision, state and the
 * new images in one update, both in conflict-retry loops that re-GET the pod (never trusting a
 * cache); `refresh` carries out planRefresh's decision. The clock is injected.
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict, type RetryOptions } from '../../client/retry.js';
import { calculateInPlaceUpdateSpec } from './calculate-spec.js';
import { hasInPlaceReadinessGate, markInPlaceUpdateStarted } from './conditions.js';
import { preparePodUpdate } from './patch-pod.js';
import { planRefresh, type RefreshOptions } from './refresh.js';
import { resizeNeedsRestart } from './resources.js';
import type { ControllerRevision, InPlaceUpdateOptions, Pod, UpdateSpec } from './types.js';

export interface InPlaceUpdaterOptions extends RefreshOptions {
  now?: () => Date;
  retry?: RetryOptions;
}

export interface UpdateResult {
  /** The change could be done in place (false: the caller must recreate the pod). */
  inPlaceUpdate: boolean;
  error?: unknown;
  /** Requeue after the grace period. */
  requeueAfterMs?: number;
  newResourceVersion?: string;
}

export interface RefreshResult {
  error?: unknown;
  requeueAfterMs?: number;
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
    return calculateInPlaceUpdateSpec(oldRevision, newRevision, opts) !== undefined;
  }

  private get(pod: Pod): Promise<Pod> {
    return this.client.get<Pod>(Pods, pod.metadata.namespace, pod.metadata.name ?? '');
  }

  async update(pod: Pod, oldRevision: ControllerRevision | undefined, newRevision: ControllerRevision | undefined, opts: InPlaceUpdateOptions = {}): Promise<UpdateResult> {
    const spec = calculateInPlaceUpdateSpec(oldRevision, newRevision, opts);
    if (!spec) return { inPlaceUpdate: false };
    try {
      if (podNeedsUnready(pod, spec)) {
        await retryOnConflict(async () => {
          const marked = markInPlaceUpdateStarted(await this.get(pod), this.now());
          if (marked) await this.client.updateStatus(Pods, marked);
        }, this.options.retry);
      }
      const updated = await retryOnConflict(async () => {
        const next = preparePodUpdate(await this.get(pod), { spec, now: this.now(), options: opts });
        return this.client.update(Pods, next);
      }, this.options.retry);
      const requeueAfterMs = spec.graceSeconds > 0 ? spec.graceSeconds * 1000 : undefined;
      return { inPlaceUpdate: true, requeueAfterMs, newResourceVersion: updated.metadata.resourceVersion };
    } catch (error) {
      return { inPlaceUpdate: true, error };
    }
  }

  async refresh(pod: Pod): Promise<RefreshResult> {
    try {
      const plan = planRefresh(pod, this.now(), this.options);
      if (plan.kind === 'none') return { requeueAfterMs: plan.requeueAfterMs };
      // the condition is written for the observed pod version only: no retry (upstream #2274)
      if (plan.kind === 'updateStatus') {
        await this.client.updateStatus(Pods, plan.pod);
        return {};
      }
      let requeueAfterMs: number | undefined;
      await retryOnConflict(async () => {
        const fresh = planRefresh(await this.get(pod), this.now(), this.options);
        requeueAfterMs = fresh.kind === 'none' ? fresh.requeueAfterMs : undefined;
        if (fresh.kind === 'update') await this.client.update(Pods, fresh.pod);
      }, this.options.retry);
      return { requeueAfterMs };
    } catch (error) {
      return { error };
    }
  }
}
