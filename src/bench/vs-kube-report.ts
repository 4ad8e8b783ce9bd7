/**
 * The rows `bench:vs-kube-apiserver` prints: each figure for both servers, the ratio, and the CPU
 * milliseconds per request of each server and of the load generator (docs/design/performance.md §13).
 */
import type { LoadGenerator } from './vs-kube-load.js';
import type { Target } from './vs-kube-measures.js';

export interface Measured {
  value: number;
  /** The load generator's CPU per request, ms (figures it drives). */
  clientCpuMs?: number;
}

export interface Figure {
  name: string;
  unit: string;
  /** true when more is better (throughput), false for latencies. */
  higherIsBetter: boolean;
  measure: (t: Target, load: LoadGenerator) => Promise<Measured>;
  /** Requests the figure sends, for CPU per request (the server's processes: kruise up; kube-apiserver + etcd). */
  ops?: number;
}

export interface Row {
  kruise: number;
  kube: number;
  ratio: number;
  kruiseCpuMsPerRequest?: number;
  kubeCpuMsPerRequest?: number;
  clientCpuMsPerRequest?: [number, number];
}

export function printRow(f: Figure, ours: Measured & { serverCpuMs?: number }, theirs: Measured & { serverCpuMs?: number }): Row {
  const ratio = f.higherIsBetter ? ours.value / theirs.value : theirs.value / ours.value;
  const row: Row = { kruise: ours.value, kube: theirs.value, ratio: Math.round(ratio * 100) / 100 };
  let cpuText = '';
  if (ours.serverCpuMs !== undefined) {
    Object.assign(row, { kruiseCpuMsPerRequest: ours.serverCpuMs, kubeCpuMsPerRequest: theirs.serverCpuMs });
    cpuText = `  ${ours.serverCpuMs.toFixed(2)}, ${theirs.serverCpuMs!.toFixed(2)}`;
  }
  if (ours.clientCpuMs !== undefined) {
    row.clientCpuMsPerRequest = [ours.clientCpuMs, theirs.clientCpuMs!];
    cpuText += `; client ${ours.clientCpuMs.toFixed(2)}, ${theirs.clientCpuMs!.toFixed(2)}`;
  }
  console.log(`  ${f.name.padEnd(36)} ${`${ours.value}${f.unit}`.padStart(10)} ${`${theirs.value}${f.unit}`.padStart(10)}  ${`${ratio.toFixed(2)}x`.padEnd(7)}${cpuText}`);
  return row;
}
