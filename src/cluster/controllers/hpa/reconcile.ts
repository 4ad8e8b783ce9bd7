/**
 * One HPA pass, every sync period (docs/design/autoscaling.md §2-§5): read the target's scale, keep
 * it within min/max, else compute the metrics' proposal and normalize it, rescale when it differs,
 * and write status (currentReplicas, desiredReplicas, lastScaleTime, currentMetrics, and the
 * AbleToScale / ScalingActive / ScalingLimited conditions) when it changed.
 */
import { HorizontalPodAutoscalers } from '../../../api/resource-type.js';
import type { KObject } from '../../../api/meta.js';
import type { Client } from '../../../client/client.js';
import type { Clock } from '../../../machinery/clock.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isNotFound } from '../../../machinery/errors.js';
import { updateLatest } from '../../../client/update-latest.js';
import { rfc3339 } from '../../../machinery/time.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { Request } from '../../../runtime/handlers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Result } from '../../../runtime/reconcile.js';
import { computeReplicas, type MetricSpec } from './metrics.js';
import { Normalizer, type Behavior, type ConditionNote } from './normalize.js';
import { getScale, resolveTarget, setScale } from './scale-target.js';
import type { Pod } from '../../../api/core/index.js';

export interface HpaOptions {
  /** --horizontal-pod-autoscaler-sync-period (15 s). */
  syncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization (5 min), for HPAs without their own window. */
  downscaleStabilizationMs?: number;
}

interface Condition { type: string; status: string; lastTransitionTime: string; reason: string; message: string }
export type Hpa = KObject & {
  spec: { scaleTargetRef: { apiVersion?: string; kind: string; name: string }; minReplicas?: number; maxReplicas: number; metrics?: MetricSpec[]; behavior?: Behavior };
  status?: { currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string; currentMetrics?: unknown[] | null; conditions?: Condition[] };
};

export interface HpaDeps {
  hpas: Informer<Hpa>; pods: Informer<Pod>; client: Client; clock: Clock; events: EventRecorder;
  /** Maps a target's kind to its resource (kube-controller-manager's own RESTMapper); `client` when absent. */
  mapper?: Client;
}

export class HpaReconciler {
  private readonly normalizer: Normalizer;
  private readonly syncPeriodMs: number;
  /** When each HPA last had a pass: kube's queue lets an HPA through at most once per sync period. */
  private readonly lastPass = new Map<string, number>();

  constructor(private readonly d: HpaDeps, options: HpaOptions = {}) {
    this.syncPeriodMs = options.syncPeriodMs ?? 15_000;
    this.normalizer = new Normalizer(d.clock, options.downscaleStabilizationMs ?? 300_000);
  }

  async reconcile(_ctx: unknown, req: Request): Promise<Result> {
    const key = `${req.namespace}/${req.name}`;
    const hpa = this.d.hpas.get(req.namespace, req.name);
    if (!hpa || hpa.metadata.deletionTimestamp) {
      this.normalizer.forget(key);
      this.lastPass.delete(key);
      return {};
    }
    const now = this.d.clock.now();
    const last = this.lastPass.get(key);
    if (last !== undefined && now - last < this.syncPeriodMs) return { requeueAfterMs: last + this.syncPeriodMs - now };
    this.lastPass.set(key, now);
    await this.pass(structuredClone(hpa), key).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    return { requeueAfterMs: this.syncPeriodMs };
  }

  private setCondition(hpa: Hpa, type: string, note: ConditionNote): void {
    const status = (hpa.status ??= {});
    const list = (status.conditions ??= []);
    let c = list.find((x) => x.type === type);
    if (!c) list.push(c = { type, status: '', lastTransitionTime: '', reason: '', message: '' });
    if (c.status !== note.status) c.lastTransitionTime = rfc3339(this.d.clock.now());
    Object.assign(c, { status: note.status, reason: note.reason, message: note.message });
  }

  private async pass(hpa: Hpa, key: string): Promise<void> {
    const before = structuredClone(hpa.status ?? {});
    const ns = hpa.metadata.namespace!;
    const ref = hpa.spec.scaleTargetRef;
    const writeStatus = () => (deepEqual(before, hpa.status) ? undefined
      : updateLatest(this.d.client, HorizontalPodAutoscalers, hpa, (latest) => { latest.status = hpa.status; }, { status: true }));
    let target;
    let scale;
    try {
      target = await resolveTarget(this.d.mapper ?? this.d.client, ref.apiVersion ?? '', ref.kind);
      scale = await getScale(this.d.client, target, ns, ref.name);
    } catch (e) {
      this.d.events.event(hpa, 'Warning', 'FailedGetScale', (e as Error).message);
      this.setCondition(hpa, 'AbleToScale', { status: 'False', reason: 'FailedGetScale', message: `the HPA controller was unable to get the target's current scale: ${(e as Error).message}` });
      await writeStatus();
      return;
    }
    this.setCondition(hpa, 'AbleToScale', { status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
    const current = scale.replicas;
    this.normalizer.seed(key, current);
    const min = hpa.spec.minReplicas ?? 1;
    let desired = 0;
    let reason = '';
    let rescale = true;
    let statuses = hpa.status?.currentMetrics ?? null;
    if (current === 0 && min !== 0) {
      rescale = false;
      this.setCondition(hpa, 'ScalingActive', { status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' });
    } else if (current > hpa.spec.maxReplicas) {
      [desired, reason] = [hpa.spec.maxReplicas, 'Current number of replicas above Spec.MaxReplicas'];
    } else if (current < min) {
      [desired, reason] = [min, 'Current number of replicas below Spec.MinReplicas'];
    } else {
      const m = await computeReplicas(this.d.client, ns, this.d.pods.list(), scale.selector, current, hpa.spec.metrics ?? []);
      for (const [r, msg] of m.warnings) this.d.events.event(hpa, 'Warning', r, msg);
      this.setCondition(hpa, 'ScalingActive', m.scalingActive);
      if (m.scalingActive.status === 'False') {
        hpa.status = { ...hpa.status, currentReplicas: current };
        await writeStatus();
        return;
      }
      statuses = m.statuses;
      desired = m.replicas;
      if (desired > current) reason = `${m.metricName} above target`;
      if (desired < current) reason = 'All metrics below target';
      const n = this.normalizer.normalize({ key, current, desired, min, max: hpa.spec.maxReplicas, behavior: hpa.spec.behavior });
      this.setCondition(hpa, 'AbleToScale', n.ableToScale);
      this.setCondition(hpa, 'ScalingLimited', n.scalingLimited);
      desired = n.replicas;
      rescale = desired !== current;
    }
    let lastScaleTime = hpa.status?.lastScaleTime;
    if (rescale) {
      try {
        await setScale(this.d.client, target, ns, ref.name, desired);
      } catch (e) {
        this.d.events.event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${(e as Error).message}`);
        this.setCondition(hpa, 'AbleToScale', { status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${(e as Error).message}` });
        hpa.status = { ...hpa.status, currentReplicas: current };
        await writeStatus();
        throw e;
      }
      this.setCondition(hpa, 'AbleToScale', { status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desired}` });
      this.d.events.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      this.normalizer.scaled(key, current, desired);
      lastScaleTime = rfc3339(this.d.clock.now());
    } else {
      desired = current;
    }
    hpa.status = { currentReplicas: current || undefined, desiredReplicas: desired, currentMetrics: statuses, conditions: hpa.status?.conditions };
    if (!hpa.status.currentReplicas) delete hpa.status.currentReplicas; // omitempty in v2
    if (lastScaleTime) hpa.status.lastScaleTime = lastScaleTime;
    await writeStatus();
  }
}
