/**
 * Readiness that flaps (§10): once a container is first ready it stays ready for `readyMs`, then
 * unready for `unreadyMs`, and so on, like a readiness probe of a backend that stalls now and then.
 */

export interface ReadinessFlaps { readyMs: number; unreadyMs: number }

/** Readiness at `now` of a container first ready at `readyAt`, and when it next changes. */
export function flappingReadiness(readyAt: number, flaps: ReadinessFlaps, now: number): { ready: boolean; changesAt: number } {
  const period = flaps.readyMs + flaps.unreadyMs;
  const cycleStart = readyAt + Math.floor((now - readyAt) / period) * period;
  const intoCycle = now - cycleStart;
  return intoCycle < flaps.readyMs
    ? { ready: true, changesAt: cycleStart + flaps.readyMs }
    : { ready: false, changesAt: cycleStart + period };
}
