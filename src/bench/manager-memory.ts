/**
 * `npm run bench:manager-memory`: the resident memory of an idle `kruise manager` with an empty
 * cluster (performance.md §15). A control plane with Kruise installed runs in a child process
 * (`admission-plane --mode split`, as `kruise up --no-kruise-manager`); the manager runs in another,
 * once with the chart's NODE_OPTIONS and malloc settings and once with none (started by hand), alternating over
 * --rounds. For each: the time from spawn to its "ready" line, its CPU seconds by then, its RSS
 * then and after --idle-s seconds idle, split by /proc/PID/status into file-backed (the node binary
 * and libraries) and anonymous memory, and the anonymous part into V8 heap and native memory with
 * the heap figures that manager-memory-probe.ts writes on SIGUSR2.
 */
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { managerNodeOptions } from '../install/chart/values.js';
import { startManager, startPlane } from './admission-procs.js';
import { procUsage } from './workloads-proc.js';
import { writeResults } from './stats.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('--rounds', 2);
const idleSeconds = arg('--idle-s', 30);
const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), `manager-memory-probe${path.extname(fileURLToPath(import.meta.url))}`);
/** `malloc`: the chart's malloc settings (values.ts), on unless false. */
interface Variant { name: string; nodeOptions: string; malloc?: boolean; env?: NodeJS.ProcessEnv }
/** KRUISE_MEMORY_VARIANTS (JSON, e.g. `[{"name":"x","nodeOptions":"","malloc":false,"env":{"A":"1"}}]`) replaces the two defaults. */
const variants: Variant[] = process.env.KRUISE_MEMORY_VARIANTS ? JSON.parse(process.env.KRUISE_MEMORY_VARIANTS) as Variant[] : [
  { name: 'chart settings', nodeOptions: managerNodeOptions },
  { name: 'none (by hand)', nodeOptions: '', malloc: false },
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => Math.round(bytes / 104857.6) / 10;
const statusMiB = (status: string, field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 102.4) / 10;

interface HeapProbe { heapTotal: number; heapUsed: number; mallocedMemory: number; spaces: Record<string, { size: number; used: number }> }
type Figures = Record<string, number>;

async function heapOf(pid: number, file: string): Promise<HeapProbe> {
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text) return JSON.parse(text) as HeapProbe;
  }
  throw new Error('the manager wrote no heap figures');
}

async function measure(kubeconfig: string, { nodeOptions, malloc, env }: Variant, round: number): Promise<Figures> {
  const probeFile = path.join(os.tmpdir(), `kruise-memory-probe-${process.pid}-${round}.json`);
  const started = performance.now();
  const manager = await startManager(kubeconfig, { ...env, NODE_OPTIONS: `${nodeOptions} --import ${probe}`.trim(), KRUISE_MEMORY_PROBE_FILE: probeFile }, malloc !== false);
  const readyMs = performance.now() - started;
  const pid = manager.child.pid!;
  try {
    const atReady = await procUsage(pid);
    let minRss = atReady.rssMiB;
    for (let s = 0; s < idleSeconds; s++) {
      await sleep(1000);
      minRss = Math.min(minRss, (await procUsage(pid)).rssMiB);
    }
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const usage = await procUsage(pid);
    const heap = await heapOf(pid, probeFile);
    const anon = statusMiB(status, 'RssAnon');
    return {
      'ready after (ms)': Math.round(readyMs), 'CPU s by ready': atReady.cpuSeconds,
      'RSS at ready': atReady.rssMiB, [`RSS after ${idleSeconds} s idle`]: usage.rssMiB, 'lowest RSS while idle': minRss, 'peak (VmHWM)': usage.peakRssMiB,
      '  file-backed (RssFile)': statusMiB(status, 'RssFile'), '  anonymous (RssAnon)': anon,
      '    V8 heap committed': mib(heap.heapTotal), '      of which code space': mib(heap.spaces.code_space?.size ?? 0),
      '      live (heapUsed)': mib(heap.heapUsed), '    native (anon - heap)': Math.round((anon - mib(heap.heapTotal)) * 10) / 10,
      'CPU s while idle': Math.round((usage.cpuSeconds - atReady.cpuSeconds) * 100) / 100,
    };
  } finally {
    await manager.stop();
    await rm(probeFile, { force: true });
  }
}

async function main(): Promise<void> {
  const plane = await startPlane('split');
  const results: Record<string, Figures[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const v of round % 2 ? [...variants].reverse() : variants) {
        console.error(`round ${round + 1}/${rounds}: ${v.name}`);
        results[v.name]!.push(await measure(plane.kubeconfig, v, round));
      }
    }
  } finally {
    await plane.stop();
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round(((s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2) * 100) / 100;
  };
  const rows = Object.keys(results[variants[0]!.name]![0]!);
  const col = (s: string | number, w: number) => String(s).padEnd(w);
  console.log(`kruise manager, empty cluster, ${rounds} round(s), MiB unless named (median; each round in brackets)`);
  console.log(`  ${col('', 30)}${variants.map((v) => col(v.name, 30)).join('')}`);
  for (const row of rows) {
    const cells = variants.map((v) => {
      const xs = results[v.name]!.map((f) => f[row]!);
      return col(`${median(xs)} [${xs.join(', ')}]`, 30);
    });
    console.log(`  ${col(row, 30)}${cells.join('')}`);
  }
  console.log(`results: ${await writeResults('manager-memory', { rounds, idleSeconds, results })}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
