/**
 * Kubernetes' slowStartBatch: run `count` calls of `fn` in batches that double in size (1, 2, 4, ...
 * from `initialBatchSize`), each batch in parallel, stopping after the first batch with a failure.
 * A quota or webhook that rejects every create then costs one call, not hundreds.
 */

export interface SlowStartResult {
  successes: number;
  /** The first error of the failing batch, if any. */
  error?: unknown;
}

export async function slowStartBatch(count: number, initialBatchSize: number, fn: (index: number) => Promise<void>): Promise<SlowStartResult> {
  let remaining = count;
  let successes = 0;
  let index = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn(index++)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}

/** The batch sizes slowStartBatch would use for `count` calls that all succeed (for tests and logs). */
export function slowStartBatchSizes(count: number, initialBatchSize: number): number[] {
  const sizes: number[] = [];
  let remaining = count;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    sizes.push(batch);
    remaining -= batch;
  }
  return sizes;
}
