/**
 * V8 settings `kruise manager` applies to itself (docs/design/performance.md §15). Heap limits can
 * only be given at start (NODE_OPTIONS, as the chart does: performance.md §6), but V8 reads
 * `--optimize-for-size` at every collection: with it the young generation stays at its minimum
 * and the old one grows conservatively. That costs a rollout about a third more CPU (many more
 * scavenges), so the manager turns it on only while it is idle, with one full collection as it
 * goes idle, and off again as soon as it works.
 */
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import vm from 'node:vm';

export interface IdleTuning {
  /** How often CPU use is sampled while working, to notice idleness. */
  intervalMs: number;
  /** Below this share of one core over an interval the process counts as idle. */
  idleCpuShare: number;
  /** How often it is sampled while idle: work must end the flag within a fraction of a rollout. */
  idleIntervalMs: number;
  /**
   * Above this event-loop utilization over an idle interval the process counts as working again.
   * The loop's, not the CPU's: the collection that starts an idle spell leaves V8's helper threads
   * sweeping for a while, and counting their CPU turned the flag off and on again every 5 s, each
   * time with another full collection.
   */
  busyLoopShare: number;
}

export const defaultIdleTuning: IdleTuning = { intervalMs: 5_000, idleCpuShare: 0.01, idleIntervalMs: 250, busyLoopShare: 0.1 };

/** KRUISE_MANAGER_IDLE_GC=off leaves V8 alone (to compare). */
export function idleTuningEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.KRUISE_MANAGER_IDLE_GC !== 'off';
}

type Gc = (options?: { type: 'major'; execution: 'sync' }) => void;

/**
 * Starts the idle watch; returns its stop. Idleness is judged over the long interval (a lease
 * renewal must not count as work), work over the short one: a rollout after an idle spell otherwise
 * ran its first seconds with the flag, a tenth more CPU (docs/design/performance.md §17).
 */
export function tuneHeapWhenIdle(
  tuning: IdleTuning = defaultIdleTuning, flags: (f: string) => void = v8.setFlagsFromString, onChange: (idle: boolean) => void = () => undefined,
): () => void {
  // The gc() of --expose-gc, taken from a fresh context (the flag only applies to new contexts).
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as Gc;
  let last = process.cpuUsage();
  let loop = performance.eventLoopUtilization();
  let idle = false;
  let timer: NodeJS.Timeout;
  const check = () => {
    const used = process.cpuUsage(last);
    const ms = (used.user + used.system) / 1000;
    const utilization = performance.eventLoopUtilization(loop).utilization;
    last = process.cpuUsage();
    loop = performance.eventLoopUtilization();
    const changed = idle ? utilization > tuning.busyLoopShare : ms < tuning.intervalMs * tuning.idleCpuShare;
    if (changed) {
      idle = !idle;
      flags(idle ? '--optimize-for-size' : '--no-optimize-for-size');
      // One full collection (not the `last-resort` flavour's several: 0.2 s of CPU with 1,000 pods
      // cached); at an idle allocation rate V8 shrinks the young generation after it.
      if (idle) gc({ type: 'major', execution: 'sync' });
      onChange(idle);
      last = process.cpuUsage(); // the collection is not the next interval's work
      loop = performance.eventLoopUtilization();
    }
    timer = setTimeout(check, idle ? tuning.idleIntervalMs : tuning.intervalMs);
    timer.unref();
  };
  timer = setTimeout(check, tuning.intervalMs);
  timer.unref();
  return () => clearTimeout(timer);
}
