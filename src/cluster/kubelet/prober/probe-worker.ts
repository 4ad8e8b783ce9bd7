/**
 * One probe of one container attempt, run the way kubelet's prober worker runs it, on simulated
 * outcomes: probes start at `firstAt` and then every periodSeconds (a probe slower than the period
 * delays the next to the following tick); a result changes only after successThreshold or
 * failureThreshold equal outcomes in a row; a liveness or startup failure stops the probe until a new
 * container attempt, and a startup success ends the startup probe.
 *
 * Rather than a timer per tick, `advance(now)` replays every probe due by `now`, and probes that
 * cannot change anything (a settled success with more successes scripted) are skipped over, so an
 * always-healthy container costs nothing between syncs.
 */
import { nextFailureFrom, succeedsAt, type OutcomeScript } from '../../../machinery/outcome-script.js';
import type { ProbeSettings, ProbeType } from './probe-spec.js';

export type ProbeResult = 'success' | 'failure' | 'unknown';

const initialResult: Record<ProbeType, ProbeResult> = { liveness: 'success', readiness: 'failure', startup: 'unknown' };

export interface ProbeWorkerOptions {
  type: ProbeType;
  settings: ProbeSettings;
  script: OutcomeScript;
  /** When the container started (outcomes are scripted against time since then). */
  containerStartedAt: number;
  /** When the first probe starts. */
  firstAt: number;
}

export class ProbeWorker {
  result: ProbeResult;
  /** When `result` last changed (a startup success opens the other probes). */
  changedAt: number;
  private script: OutcomeScript;
  private lastOutcome?: boolean;
  private run = 0;
  /** Index of the next probe's tick: it starts at firstAt + tick * period. */
  private tick = 0;
  private held = false;

  constructor(private readonly o: ProbeWorkerOptions) {
    this.result = initialResult[o.type];
    this.changedAt = o.firstAt;
    this.script = o.script;
  }

  /** Replays every probe whose result is due by `now`; `onFailure` hears each failed one. */
  advance(now: number, onFailure: (at: number, timedOut: boolean) => void): void {
    const { settings, containerStartedAt } = this.o;
    const timedOut = this.script.latencyMs >= settings.timeoutMs;
    const answerMs = Math.min(this.script.latencyMs, settings.timeoutMs);
    while (!this.held && this.startAt(this.tick) + answerMs <= now) {
      const start = this.startAt(this.tick);
      const at = start + answerMs;
      const ok = !timedOut && succeedsAt(this.script.shape, start - containerStartedAt);
      this.record(ok, at);
      if (!ok) onFailure(at, timedOut);
      this.tick = Math.max(this.tick + 1, this.tickAtOrAfter(at));
      if (this.settled() && !timedOut) this.tick = Math.max(this.tick, this.tickAtOrAfter(containerStartedAt + nextFailureFrom(this.script.shape, this.startAt(this.tick) - containerStartedAt)));
    }
  }

  /** When the next probe that matters answers (Infinity when none will). */
  nextDueAt(): number {
    if (this.held) return Infinity;
    return this.startAt(this.tick) + Math.min(this.script.latencyMs, this.o.settings.timeoutMs);
  }

  /** The annotation changed: later probes follow the new script (skipped ticks are probed again). */
  rescript(script: OutcomeScript, now: number): void {
    this.script = script;
    this.tick = Math.min(this.tick, this.tickAtOrAfter(now));
  }

  private startAt(tick: number): number {
    return Number.isFinite(tick) ? this.o.firstAt + tick * this.o.settings.periodMs : Infinity;
  }

  private tickAtOrAfter(t: number): number {
    if (!Number.isFinite(t)) return Infinity;
    return Math.max(0, Math.ceil((t - this.o.firstAt) / this.o.settings.periodMs));
  }

  private settled(): boolean {
    return this.result === 'success' && this.lastOutcome === true && this.run >= this.o.settings.successThreshold;
  }

  private record(ok: boolean, at: number): void {
    if (this.lastOutcome === ok) this.run++;
    else {
      this.lastOutcome = ok;
      this.run = 1;
    }
    const { successThreshold, failureThreshold } = this.o.settings;
    if (this.run < (ok ? successThreshold : failureThreshold)) return; // below threshold: result unchanged
    const result = ok ? 'success' : 'failure';
    if (this.result !== result) {
      this.result = result;
      this.changedAt = at;
    }
    const type = this.o.type;
    if ((type === 'liveness' || type === 'startup') && !ok) {
      this.held = true; // the container is killed; a new attempt gets a new worker
      this.run = 0;
    }
    if (type === 'startup' && ok) this.held = true; // the container has started: startup probing ends
  }
}
