/**
 * Per-node back-off for deleting Failed daemon pods (docs/design/advanced-daemonset.md §7): a kubelet that
 * keeps rejecting pods must not make the controller hot-loop. The delay starts at 1 s and doubles
 * up to 15 min per `<ds uid>/<observedGeneration>/<node>` key; entries idle for twice the maximum
 * are dropped (flowcontrol.Backoff's IsInBackOffSinceUpdate and GC).
 */
export interface FailedBackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

interface Entry {
  delayMs: number;
  lastUpdate: number;
}

export class FailedPodBackoff {
  private readonly entries = new Map<string, Entry>();
  private readonly initialMs: number;
  private readonly maxMs: number;

  constructor(options: FailedBackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 1_000;
    this.maxMs = options.maxMs ?? 15 * 60_000;
  }

  /** Still inside the current delay since the last deletion on this key; returns the remaining ms. */
  remaining(key: string, now: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    return Math.max(0, e.lastUpdate + e.delayMs - now);
  }

  /** Records a deletion now: the next one waits twice as long (capped). */
  next(key: string, now: number): void {
    this.gc(now);
    const e = this.entries.get(key);
    this.entries.set(key, { delayMs: e ? Math.min(e.delayMs * 2, this.maxMs) : this.initialMs, lastUpdate: now });
  }

  private gc(now: number): void {
    for (const [key, e] of this.entries) if (now - e.lastUpdate > 2 * this.maxMs) this.entries.delete(key);
  }
}
