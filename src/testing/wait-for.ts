/**
 * Test kit: polls `check` every 10 ms until it returns a truthy value, on the real clock (no fake time
 * passes). Errors from `check` fail at once; `eventually` in workload-env.ts retries them instead.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
