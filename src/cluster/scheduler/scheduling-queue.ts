/**
 * Pending pods waiting for a decision, by key, on the runtime's WorkQueue (de-duplicating FIFO).
 * A pod that fits nowhere parks in `unschedulable` until the cluster changes in a way that may help
 * (a node added or changed, a pod removed; pods that failed on affinity or spreading also on a pod
 * added) or until it has waited `maxUnschedulableMs`. It then returns after its backoff: 1 s doubling
 * per failed attempt up to 10 s, counted from the last attempt, as kube-scheduler does.
 */
import type { Clock } from '../../machinery/clock.js';
import { WorkQueue } from '../../machinery/workqueue/queue.js';

export interface SchedulingQueueOptions {
  clock: Clock;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long a pod may stay parked without any event before it is retried anyway. */
  maxUnschedulableMs?: number;
  /** How often parked pods are checked against `maxUnschedulableMs`. */
  flushIntervalMs?: number;
}

interface Parked {
  lastAttempt: number;
}

export class SchedulingQueue {
  private readonly queue: WorkQueue;
  private readonly clock: Clock;
  private readonly attempts = new Map<string, number>();
  private readonly parked = new Map<string, Parked>();
  /** Parked keys with `podSensitive`, so a pod added elsewhere does not walk every parked pod. */
  private readonly podSensitive = new Set<string>();
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxUnschedulableMs: number;
  private cancelFlush?: () => void;

  constructor(options: SchedulingQueueOptions) {
    this.clock = options.clock;
    this.queue = new WorkQueue({ clock: options.clock });
    this.initialBackoffMs = options.initialBackoffMs ?? 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.maxUnschedulableMs = options.maxUnschedulableMs ?? 60_000;
    const interval = options.flushIntervalMs ?? 30_000;
    const tick = () => {
      this.flushParked();
      this.cancelFlush = this.clock.after(interval, tick);
    };
    this.cancelFlush = this.clock.after(interval, tick);
  }

  /** A pending pod appeared or changed: queue it now unless it waits out a backoff. */
  add(key: string): void {
    if (this.parked.has(key)) this.release(key);
    else if (!this.attempts.has(key)) this.queue.add(key);
  }

  get(): Promise<string | undefined> {
    return this.queue.get();
  }

  done(key: string): void {
    this.queue.done(key);
  }

  /**
   * Nothing fits: park until an event or the flush brings it back. `podSensitive`: it failed on pod
   * affinity or topology spread, so a pod added elsewhere may help too.
   */
  unschedulable(key: string, podSensitive: boolean): void {
    this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
    this.parked.set(key, { lastAttempt: this.clock.now() });
    if (podSensitive) this.podSensitive.add(key);
    else this.podSensitive.delete(key);
  }

  /** An error (a failed binding, an API error): retry after the backoff. */
  failed(key: string): void {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    this.queue.addAfter(key, this.backoff(n));
  }

  /** Scheduled, or gone: forget attempts and any parking. */
  forget(key: string): void {
    this.attempts.delete(key);
    this.parked.delete(key);
    this.podSensitive.delete(key);
  }

  /** A cluster event that may make parked pods fit; `podAdded` releases only pod-sensitive ones. */
  moveParked(podAdded = false): void {
    for (const key of podAdded ? this.podSensitive : this.parked.keys()) this.release(key);
  }

  /** Pods ready to be handed out now (not parked, not waiting out a backoff). */
  readyCount(): number {
    return this.queue.len();
  }

  parkedCount(): number {
    return this.parked.size;
  }

  shutDown(): void {
    this.cancelFlush?.();
    this.queue.shutDown();
  }

  drain(): Promise<void> {
    return this.queue.drain();
  }

  private backoff(attempts: number): number {
    return Math.min(this.initialBackoffMs * 2 ** Math.max(0, attempts - 1), this.maxBackoffMs);
  }

  private release(key: string): void {
    const p = this.parked.get(key);
    if (!p) return;
    this.parked.delete(key);
    this.podSensitive.delete(key);
    const wait = p.lastAttempt + this.backoff(this.attempts.get(key) ?? 1) - this.clock.now();
    this.queue.addAfter(key, wait);
  }

  private flushParked(): void {
    const now = this.clock.now();
    for (const [key, p] of this.parked) if (now - p.lastAttempt >= this.maxUnschedulableMs) this.release(key);
  }
}
