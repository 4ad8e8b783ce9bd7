/** Small helpers for benchmarks: percentiles, rates, RSS of a process, result files. */
import { readFile, mkdir, writeFile } from 'node:fs/promises';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Runs `count` operations with `concurrency` workers; returns operations per second. */
export async function rate(count: number, concurrency: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await op(next++);
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return Math.round(count / seconds);
}

export async function writeResults(name: string, results: Record<string, unknown>): Promise<string> {
  await mkdir('bench-results', { recursive: true });
  const file = `bench-results/${name}.json`;
  await writeFile(file, JSON.stringify({ date: new Date().toISOString(), node: process.version, ...results }, null, 2));
  return file;
}
