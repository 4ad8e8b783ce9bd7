/**
 * Client-side request throttling, a token bucket like client-go's (`QPS`, `Burst`): up to `burst`
 * requests at once, then `qps` per second. Waiters are served in arrival order.
 */

export interface RateLimiterOptions {
  qps: number;
  /** Defaults to twice qps (client-go's defaults are 5 and 10), at least 1. */
  burst?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RateLimiter {
  private readonly qps: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private tokens: number;
  private last: number;
  /** Reservations made but not yet due; keeps FIFO order without a queue. */
  private tail: Promise<void> = Promise.resolve();

  constructor(options: RateLimiterOptions) {
    if (!(options.qps > 0)) throw new Error(`qps must be positive, got ${options.qps}`);
    this.qps = options.qps;
    this.burst = Math.max(1, Math.floor(options.burst ?? options.qps * 2));
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Resolves when the caller may send one request. */
  take(): Promise<void> {
    const turn = this.tail.then(() => this.reserve());
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  private async reserve(): Promise<void> {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    if (this.tokens < 0) await this.sleep((-this.tokens / this.qps) * 1000);
  }
}
