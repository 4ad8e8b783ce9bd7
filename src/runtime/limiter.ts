/**
 * At most `max` calls in flight across everything one reconcile pass starts, from several places
 * (forEachLimited in parallel.ts serves one list): a pass over hundreds of pods neither waits on
 * each round trip in turn nor opens hundreds of requests at once.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`limit must be a positive integer, got ${max}`);
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    // a released slot passes straight to the next waiter, so `active` never overshoots
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
