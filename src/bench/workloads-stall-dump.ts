/**
 * A diagnostic for stalled rollouts, on when KRUISE_BENCH_STALL_DUMP is set: every few seconds it
 * prints to stderr the CloneSet's status, its pods counted by revision, lifecycle state, deletion,
 * readiness and the specified-delete label, and the manager's cloneset work queue gauges.
 */
import type { KObject } from '../api/meta.js';
import { isReady, revisionOf, statusOf } from './workloads-pods.js';
import { scrapeMetrics } from './workloads-proc.js';
import type { StoreWatch } from './workloads-watch.js';

const enabled = () => !!process.env.KRUISE_BENCH_STALL_DUMP;

function podKey(p: KObject, updateRevision: string | undefined): string {
  const labels = p.metadata.labels ?? {};
  const rev = revisionOf(p) === updateRevision ? 'new' : 'old';
  const state = labels['lifecycle.apps.kruise.io/state'] ?? '-';
  const del = p.metadata.deletionTimestamp ? 'terminating' : 'live';
  const sd = labels['apps.kruise.io/specified-delete'] !== undefined ? 'specified-delete' : '';
  const node = (p as { spec?: { nodeName?: string } }).spec?.nodeName ? 'scheduled' : 'unscheduled';
  // for a pod not Ready, the conditions that are not True say who has not written yet
  const conditions = (p as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? [];
  const missing = isReady(p) ? '' : `not(${['ContainersReady', 'KruisePodReady', 'InPlaceUpdateReady'].filter((t) => !conditions.some((c) => c.type === t && c.status === 'True')).join(',')})`;
  return [rev, state, del, isReady(p) ? 'ready' : 'notready', node, sd, missing].filter(Boolean).join('/');
}

/** Starts the periodic dump; returns the function that stops it. */
export function startStallDump(label: string, pods: StoreWatch, sets: StoreWatch, metricsUrl: string, everyMs = 10_000): () => void {
  if (!enabled()) return () => undefined;
  const t0 = performance.now();
  const timer = setInterval(() => { void dump(); }, everyMs);
  async function dump(): Promise<void> {
    const cs = sets.items()[0];
    const status = cs ? statusOf(cs) : {};
    const counts = new Map<string, number>();
    for (const p of pods.items()) {
      const k = podKey(p, status.updateRevision);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const metrics = await scrapeMetrics(metricsUrl).catch(() => '');
    const queue = metrics.split('\n').filter((l) => /controller="cloneset-controller"/.test(l) && /^(workqueue_(depth|adds_total|retries_total)|controller_runtime_reconcile_(total|errors_total))/.test(l));
    const s = Math.round((performance.now() - t0) / 1000);
    process.stderr.write(`\n[stall-dump ${label} +${s}s] status ${JSON.stringify(cs ? { generation: cs.metadata.generation, ...(cs as { status?: object }).status } : null)}\n`
      + [...counts].sort().map(([k, n]) => `  ${n}\t${k}`).join('\n') + '\n' + queue.map((l) => `  ${l}`).join('\n') + '\n');
  }
  return () => clearInterval(timer);
}
