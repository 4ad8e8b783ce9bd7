/**
 * What the manager process costs, read from Linux /proc: resident memory now (VmRSS) and at its
 * peak (VmHWM), CPU seconds (utime + stime of /proc/<pid>/stat); and what it did, from its own
 * /metrics (controller-runtime reconcile counters and times, per controller).
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export interface ProcUsage {
  rssMiB: number;
  peakRssMiB: number;
  cpuSeconds: number;
}

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

const mib = (status: string, field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 102.4) / 10;

export async function procUsage(pid: number): Promise<ProcUsage> {
  const [status, stat] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
  // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[11]) + Number(rest[12]);
  return { rssMiB: mib(status, 'VmRSS'), peakRssMiB: mib(status, 'VmHWM'), cpuSeconds: ticks / ticksPerSecond };
}

/** This process (the API server, scheduler, nodes and core controllers), CPU in seconds. */
export function selfCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

export interface Reconciles {
  count: number;
  seconds: number;
}

/** The manager's /metrics page. */
export async function scrapeMetrics(metricsUrl: string): Promise<string> {
  return (await fetch(metricsUrl)).text();
}

/** controller_runtime_reconcile_time_seconds count and sum, by controller. */
export function parseReconciles(text: string): Record<string, Reconciles> {
  const out: Record<string, Reconciles> = {};
  for (const m of text.matchAll(/^controller_runtime_reconcile_time_seconds_(sum|count)\{controller="([^"]+)"\} (\S+)$/gm)) {
    const r = (out[m[2]!] ??= { count: 0, seconds: 0 });
    if (m[1] === 'count') r.count += Number(m[3]);
    else r.seconds += Number(m[3]);
  }
  return out;
}

export function diffReconciles(after: Record<string, Reconciles>, before: Record<string, Reconciles>): Record<string, Reconciles> {
  const out: Record<string, Reconciles> = {};
  for (const [k, a] of Object.entries(after)) {
    const count = a.count - (before[k]?.count ?? 0);
    if (count > 0) out[k] = { count, seconds: a.seconds - (before[k]?.seconds ?? 0) };
  }
  return out;
}
