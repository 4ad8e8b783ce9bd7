/**
 * PUB status has two writers in one process, the admission webhook and the controller
 * (docs/design/podunavailablebudget.md §5): both take this per-PUB mutex, start from the newest copy
 * either has written or the server returns, and retry a conflicting write from a fresh GET.
 */
import type { PodUnavailableBudget } from './budget.js';
import { NewestCopies } from '../../runtime/newest-copies.js';

const tails = new Map<string, Promise<void>>();

/** Runs `fn` while holding the mutex of `key` (the PUB's UID); callers queue in arrival order. */
export async function withPubLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => { release = r; });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/** The last status each writer of this process stored, shared by the webhook and the controller. */
export const writtenPubs = new NewestCopies<PodUnavailableBudget>();

/** client-go's ConflictRetry for PUB: 4 attempts, 500 ms apart with 10% jitter. */
export const conflictRetry = { steps: 4, delayMs: 500, jitter: 0.1 };

export const retryDelay = (): Promise<void> =>
  new Promise((r) => setTimeout(r, conflictRetry.delayMs * (1 + Math.random() * conflictRetry.jitter)));
