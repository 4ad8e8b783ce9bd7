/**
 * Bounded fan-out for a reconcile's independent writes (one per pod): a pass over a thousand pods
 * must not wait on each round trip in turn, nor open a thousand requests at once.
 */

/**
 * Calls `fn` for every item with at most `limit` calls in flight. After the first rejection no
 * further item is started; the calls already running are awaited, then the first error is thrown.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`limit must be a positive integer, got ${limit}`);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (e) {
        if (!failed) firstError = e;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed) throw firstError;
}
