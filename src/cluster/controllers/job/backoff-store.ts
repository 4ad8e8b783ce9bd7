/**
 * Per-Job memory of consecutive pod failures, for the delay before replacing failed pods: a success
 * resets it, each failure after the last success doubles the delay from the time that pod finished.
 * In memory like upstream's backoff store; a restarted controller starts every Job afresh.
 */
import { podBackoffDelayMs } from './job-budget.js';
import type { FinishedPod } from './job-tracking.js';
import { timeOf } from '../../../machinery/time.js';
import type { Pod } from '../../../api/core/index.js';

interface Record {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
  /** Pods already applied, so a retried reconcile does not count one twice. */
  seen: Set<string>;
}

export class BackoffStore {
  private readonly records = new Map<string, Record>();

  /** Applies finished pods in the order they finished. */
  observe(key: string, finished: FinishedPod[], now: number): void {
    let r = this.records.get(key);
    if (!r) this.records.set(key, (r = { failuresAfterLastSuccess: 0, seen: new Set() }));
    const fresh = finished.filter((f) => !r.seen.has(f.pod.metadata.uid ?? ''));
    const ordered = fresh.map((f) => ({ ...f, at: finishTime(f.pod) ?? now })).sort((a, b) => a.at - b.at);
    for (const f of ordered) {
      r.seen.add(f.pod.metadata.uid ?? '');
      if (f.as === 'succeeded') {
        r.failuresAfterLastSuccess = 0;
        r.lastFailureTime = undefined;
      } else {
        r.failuresAfterLastSuccess++;
        r.lastFailureTime = Math.max(r.lastFailureTime ?? 0, f.at);
      }
    }
  }

  /** Milliseconds until new pods may be created for `key` (0: now). */
  remainingMs(key: string, now: number): number {
    const r = this.records.get(key);
    if (!r || r.lastFailureTime === undefined) return 0;
    return Math.max(0, r.lastFailureTime + podBackoffDelayMs(r.failuresAfterLastSuccess) - now);
  }

  delete(key: string): void {
    this.records.delete(key);
  }
}

/** When the pod stopped: its last container termination, else when Ready turned False. */
export function finishTime(pod: Pod): number | undefined {
  let latest: number | undefined;
  for (const s of pod.status?.containerStatuses ?? []) {
    const terminated = (s.state as { terminated?: { finishedAt?: string } } | undefined)?.terminated;
    const at = timeOf(terminated?.finishedAt);
    if (at !== undefined) latest = Math.max(latest ?? at, at);
  }
  if (latest !== undefined) return latest;
  return timeOf(pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False')?.lastTransitionTime);
}
