/**
 * What the HPA controller does with the metrics' proposal (docs/design/autoscaling.md §5): without
 * `behavior`, the highest recommendation of the downscale stabilization window and a scale-up limit
 * of max(2×current, 4); with `behavior`, the lowest recent recommendation within the scale-up window
 * or the highest within the scale-down window, then the rate policies over the recent scale events.
 * Returns the replicas and the AbleToScale / ScalingLimited conditions kube writes.
 */
import type { Clock } from '../../../machinery/clock.js';

export interface ScalingPolicy { type: string; value: number; periodSeconds: number }
export interface ScalingRules { stabilizationWindowSeconds?: number; selectPolicy?: string; policies?: ScalingPolicy[] }
export interface Behavior { scaleUp?: ScalingRules; scaleDown?: ScalingRules }
export interface ConditionNote { status: 'True' | 'False'; reason: string; message: string }

interface Stamped { value: number; at: number }

export interface NormalizeInput {
  key: string;
  current: number;
  desired: number;
  min: number;
  max: number;
  behavior?: Behavior;
}

export interface Normalized { replicas: number; ableToScale: ConditionNote; scalingLimited: ConditionNote }

const within = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const ready = { status: 'True' as const, reason: 'ReadyForNewScale', message: 'recommended size matches current size' };

export class Normalizer {
  private readonly recommendations = new Map<string, Stamped[]>();
  private readonly scaleUps = new Map<string, Stamped[]>();
  private readonly scaleDowns = new Map<string, Stamped[]>();

  constructor(private readonly clock: Clock, private readonly downscaleWindowMs: number) {}

  /** kube seeds the history with the current replicas the first time it sees an HPA. */
  seed(key: string, current: number): void {
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ value: current, at: this.clock.now() }]);
  }

  forget(key: string): void {
    for (const m of [this.recommendations, this.scaleUps, this.scaleDowns]) m.delete(key);
  }

  normalize(n: NormalizeInput): Normalized {
    return n.behavior ? this.withBehavior(n, n.behavior) : this.withoutBehavior(n);
  }

  /** Records a rescale, for the rate policies. */
  scaled(key: string, from: number, to: number): void {
    const events = to > from ? this.scaleUps : this.scaleDowns;
    const list = events.get(key) ?? [];
    // events older than an hour (the longest policy period allowed is 30 minutes) are dropped
    events.set(key, [...list.filter((e) => e.at > this.clock.now() - 3_600_000), { value: Math.abs(to - from), at: this.clock.now() }]);
  }

  private remember(key: string, value: number, keepMs: number): Stamped[] {
    const now = this.clock.now();
    const list = (this.recommendations.get(key) ?? []).filter((r) => r.at >= now - keepMs);
    this.recommendations.set(key, [...list, { value, at: now }]);
    return list;
  }

  private withoutBehavior(n: NormalizeInput): Normalized {
    const now = this.clock.now();
    const recent = this.remember(n.key, n.desired, this.downscaleWindowMs).filter((r) => r.at >= now - this.downscaleWindowMs);
    const stabilized = Math.max(n.desired, ...recent.map((r) => r.value));
    const ableToScale = stabilized !== n.desired
      ? { status: 'True' as const, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : ready;
    const upLimit = Math.max(2 * n.current, 4);
    const [maxAllowed, maxReason] = n.max > upLimit
      ? [upLimit, { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }]
      : [n.max, { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' }];
    let replicas = stabilized;
    let limited = within;
    if (stabilized < n.min) [replicas, limited] = [n.min, { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' }];
    else if (stabilized > maxAllowed) [replicas, limited] = [maxAllowed, maxReason];
    return { replicas, ableToScale, scalingLimited: { status: replicas === stabilized ? 'False' : 'True', ...limited } };
  }

  private withBehavior(n: NormalizeInput, b: Behavior): Normalized {
    const now = this.clock.now();
    const upWindow = (b.scaleUp?.stabilizationWindowSeconds ?? 0) * 1000;
    const downWindow = b.scaleDown?.stabilizationWindowSeconds !== undefined ? b.scaleDown.stabilizationWindowSeconds * 1000 : this.downscaleWindowMs;
    const up = n.desired >= n.current;
    const window = up ? upWindow : downWindow;
    const recent = this.remember(n.key, n.desired, Math.max(upWindow, downWindow)).filter((r) => r.at > now - window);
    const stabilized = recent.reduce((acc, r) => (up ? Math.min(acc, r.value) : Math.max(acc, r.value)), n.desired);
    const ableToScale = stabilized === n.desired ? ready : up
      ? { status: 'True' as const, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
      : { status: 'True' as const, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
    const [replicas, limited] = this.rateLimit(n, stabilized, b);
    return { replicas, ableToScale, scalingLimited: { status: replicas === stabilized ? 'False' : 'True', ...limited } };
  }

  private changedWithin(events: Stamped[] | undefined, periodSeconds: number): number {
    const cutoff = this.clock.now() - periodSeconds * 1000;
    return (events ?? []).filter((e) => e.at > cutoff).reduce((acc, e) => acc + e.value, 0);
  }

  private rateLimit(n: NormalizeInput, desired: number, b: Behavior): [number, { reason: string; message: string }] {
    if (desired > n.current) {
      const rules = b.scaleUp ?? {};
      let limit = rules.selectPolicy === 'Disabled' ? n.current : rules.selectPolicy === 'Min' ? Infinity : 0;
      if (rules.selectPolicy !== 'Disabled') {
        for (const p of rules.policies ?? []) {
          const start = n.current - this.changedWithin(this.scaleUps.get(n.key), p.periodSeconds);
          const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
          limit = rules.selectPolicy === 'Min' ? Math.min(limit, proposed) : Math.max(limit, proposed);
        }
      }
      limit = Math.max(limit, n.current);
      const [allowed, why] = n.max > limit
        ? [limit, { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }]
        : [n.max, { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' }];
      return desired > allowed ? [allowed, why] : [desired, within];
    }
    if (desired < n.current) {
      const rules = b.scaleDown ?? {};
      let limit = rules.selectPolicy === 'Disabled' ? n.current : rules.selectPolicy === 'Min' ? -Infinity : Infinity;
      if (rules.selectPolicy !== 'Disabled') {
        for (const p of rules.policies ?? []) {
          const start = n.current + this.changedWithin(this.scaleDowns.get(n.key), p.periodSeconds);
          const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
          limit = rules.selectPolicy === 'Min' ? Math.max(limit, proposed) : Math.min(limit, proposed);
        }
      }
      limit = Math.min(limit, n.current);
      const [allowed, why] = n.min < limit
        ? [limit, { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' }]
        : [n.min, { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' }];
      return desired < allowed ? [allowed, why] : [desired, within];
    }
    return [desired, within];
  }
}
