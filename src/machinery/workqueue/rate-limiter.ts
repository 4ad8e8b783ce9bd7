/**
 * Per-item exponential backoff, the item half of client-go's default controller rate limiter
 * (5 ms doubling to 1000 s). client-go also combines it with a global 10 qps / 100 burst token
 * bucket; we leave that out: our writes go through one client that the server can throttle.
 */

export interface RateLimiter {
  /** How long `key` should wait before its next retry; counts one more failure. */
  when(key: string): number;
  /** Forgets the failures of `key` (it succeeded, or gave up). */
  forget(key: string): void;
  /** How many times `key` has been retried since it was last forgotten. */
  retries(key: string): number;
}

export interface ExponentialOptions {
  baseMs?: number;
  maxMs?: number;
}

export function exponentialRateLimiter(options: ExponentialOptions = {}): RateLimiter {
  const baseMs = options.baseMs ?? 5;
  const maxMs = options.maxMs ?? 1000_000;
  if (baseMs <= 0 || maxMs < baseMs) throw new Error(`invalid backoff: base ${baseMs} ms, max ${maxMs} ms`);
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      // 2^n overflows to Infinity long after it passes maxMs, so min() keeps it finite.
      return Math.min(baseMs * 2 ** n, maxMs);
    },
    forget(key) {
      failures.delete(key);
    },
    retries(key) {
      return failures.get(key) ?? 0;
    },
  };
}
