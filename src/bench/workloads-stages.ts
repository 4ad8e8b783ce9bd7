/**
 * Where a phase's time goes, per pod: the first time (after the phase started) each pod reached each
 * stage (created or updated by the controller, scheduled, containers running the new image, Ready,
 * deleted ...), summarised over the pods as percentiles of "seconds after the start" and of the gap
 * from one stage to the next. Gaps split the time between the controller (before "updated", and
 * from "containers ready" to "Ready" when a readiness gate waits for it), the scheduler and the
 * kubelet (simulated pull and start delays).
 */
import type { KObject } from '../api/meta.js';
import { percentile } from './stats.js';
import type { StoreWatch } from './workloads-watch.js';

export interface Stage {
  name: string;
  /** `gone`: the event deleted the pod. */
  check(pod: KObject, gone: boolean): boolean;
  /** Also summarise the gap from this earlier stage of the same pod. */
  from?: string;
}

export interface Spread {
  n: number;
  p50: number;
  p90: number;
  max: number;
}

export interface StageSummary {
  /** Seconds after the phase started, over the pods that reached the stage. */
  reached: Record<string, Spread>;
  /** Seconds from `from` to the stage, per pod, keyed `from -> stage`. */
  gaps: Record<string, Spread>;
}

const spread = (xs: number[]): Spread => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, p50: r(percentile(s, 50)), p90: r(percentile(s, 90)), max: r(s[s.length - 1] ?? NaN) };
};

export class StageRecorder {
  private readonly first = new Map<string, Record<string, number>>();
  private readonly unlisten: () => void;

  constructor(watch: StoreWatch, private readonly stages: Stage[], private readonly t0: number) {
    for (const pod of watch.items()) this.see(pod, false, t0);
    this.unlisten = watch.listen((pod, gone, at) => this.see(pod, gone, at));
  }

  stop(): StageSummary {
    this.unlisten();
    const reached: Record<string, Spread> = {};
    const gaps: Record<string, Spread> = {};
    const rows = [...this.first.values()];
    for (const st of this.stages) {
      const times = rows.filter((r) => r[st.name] !== undefined).map((r) => (r[st.name]! - this.t0) / 1000);
      if (times.length) reached[st.name] = spread(times);
      if (!st.from) continue;
      const d = rows.filter((r) => r[st.name] !== undefined && r[st.from!] !== undefined).map((r) => (r[st.name]! - r[st.from!]!) / 1000);
      if (d.length) gaps[`${st.from} -> ${st.name}`] = spread(d);
    }
    return { reached, gaps };
  }

  private see(pod: KObject, gone: boolean, at: number): void {
    const uid = pod.metadata.uid ?? pod.metadata.name!;
    let row = this.first.get(uid);
    for (const st of this.stages) {
      if (row?.[st.name] !== undefined || !st.check(pod, gone)) continue;
      if (!row) this.first.set(uid, (row = {}));
      row[st.name] = at;
    }
  }
}
