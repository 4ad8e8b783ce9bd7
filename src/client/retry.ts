/**
 * client-go's RetryOnConflict: run a read-modify-write function again when the write lost an
 * optimistic-concurrency race (409 Conflict), with a short jittered pause; any other outcome,
 * including AlreadyExists (also 409), is returned at once.
 */
import { isConflict, StatusError } from '../machinery/errors.js';

export { isAlreadyExists, isConflict, isNotFound, StatusError } from '../machinery/errors.js';

/** 410: a watch or list resourceVersion is too old; relist. */
export const isExpired = (e: unknown): boolean => e instanceof StatusError && e.code === 410;

export interface RetryOptions {
  /** Total tries, the first included (client-go's DefaultRetry: 5). */
  attempts?: number;
  /** Pause between tries, plus up to 10% jitter (DefaultRetry: 10 ms). */
  backoffMs?: number;
}

export async function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 5);
  const backoffMs = Math.max(0, options.backoffMs ?? 10);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isConflict(e) || attempt >= attempts) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, backoffMs * (1 + Math.random() * 0.1)));
  }
}
