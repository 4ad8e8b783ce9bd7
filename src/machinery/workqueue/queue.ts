/**
 * The work queue of every controller (the runtime's and the API server's system controllers): a
 * rate-limited, de-duplicating queue of keys with client-go's semantics (util/workqueue/queue.go):
 * a key is queued at most once (`dirty`), is never handed to two workers at once (`processing`), and
 * a key added while it is being processed is queued again when the worker calls `done(key)`.
 * Unlike client-go, `shutDown()` drops the keys still queued: whoever starts next lists everything
 * again, so nothing is lost, and shutdown does not wait for a backlog.
 */
import { realClock, type Clock } from '../clock.js';
import { exponentialRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Hooks for the workqueue_* metrics; the manager wires them to prom-client. */
export interface QueueMetrics {
  depth(n: number): void;
  added(): void;
  queueLatency(seconds: number): void;
  workDuration(seconds: number): void;
  retried(): void;
}

const noMetrics: QueueMetrics = { depth() {}, added() {}, queueLatency() {}, workDuration() {}, retried() {} };

export interface WorkQueueOptions {
  clock?: Clock;
  rateLimiter?: RateLimiter;
  metrics?: QueueMetrics;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  private readonly metrics: QueueMetrics;
  private queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly enqueuedAt = new Map<string, number>();
  private readonly startedAt = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; cancel: () => void }>();
  private waiters: ((key: string | undefined) => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.limiter = options.rateLimiter ?? exponentialRateLimiter();
    this.metrics = options.metrics ?? noMetrics;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics.added();
    this.dirty.add(key);
    if (!this.processing.has(key)) this.enqueue(key);
  }

  /** Adds `key` after `ms`; a key already waiting keeps the earlier of the two times. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const cancel = this.clock.after(ms, () => {
      this.delayed.delete(key);
      this.add(key);
    });
    this.delayed.set(key, { at, cancel });
  }

  /** Adds `key` after its per-item backoff (one more failure counted). */
  addRateLimited(key: string): void {
    if (this.shuttingDown) return;
    this.metrics.retried();
    this.addAfter(key, this.limiter.when(key));
  }

  /** Resets the backoff of `key`. */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.retries(key);
  }

  /** The next key to process, or undefined once the queue is shut down. Call `done(key)` after. */
  get(): Promise<string | undefined> {
    if (this.queue.length > 0) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    if (!this.processing.delete(key)) return;
    const started = this.startedAt.get(key);
    this.startedAt.delete(key);
    if (started !== undefined) this.metrics.workDuration((this.clock.now() - started) / 1000);
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
    if (this.processing.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Keys waiting to be handed out (not counting delayed or in-process keys). */
  len(): number {
    return this.queue.length;
  }

  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { cancel } of this.delayed.values()) cancel();
    this.delayed.clear();
    this.queue = [];
    this.metrics.depth(0);
    for (const wake of this.waiters.splice(0)) wake(undefined);
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Resolves once no key is being processed (after `shutDown()`, the workers are finished). */
  drain(): Promise<void> {
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private enqueue(key: string): void {
    this.enqueuedAt.set(key, this.clock.now());
    this.queue.push(key);
    const waiter = this.waiters.shift();
    if (waiter) waiter(this.take());
    else this.metrics.depth(this.queue.length);
  }

  private take(): string {
    const key = this.queue.shift()!;
    this.metrics.depth(this.queue.length);
    this.dirty.delete(key);
    this.processing.add(key);
    const now = this.clock.now();
    this.metrics.queueLatency((now - (this.enqueuedAt.get(key) ?? now)) / 1000);
    this.enqueuedAt.delete(key);
    this.startedAt.set(key, now);
    return key;
  }
}
