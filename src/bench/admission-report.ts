/** Result shapes and the printed table of `bench:admission`. */
import type { Comparison, Summary, Throughput } from './admission-measure.js';
import type { CallTable } from './admission-procs.js';

export interface CaseResult extends Comparison {
  name: string;
  base: Summary;
  hooked: Summary;
  /** Webhook calls during the case: API server's view by webhook name, handler's view by path. */
  calls: CallTable;
  verified: boolean;
  seconds: number;
}

export interface TopologyResult {
  topology: 'split' | 'up';
  setupSeconds: number;
  cases: CaseResult[];
  concurrent: Comparison & { clients: number; base: Throughput; hooked: Throughput; ratioPerSec: number; calls: CallTable; verified: boolean; seconds: number };
}

const goalMs = 3;
const describe = {
  split: 'API server process + `kruise manager` process serving the webhooks',
  up: 'webhooks in the API server process (as `kruise up`)',
};
const f = (x: number) => x.toFixed(2);
const pair = (s: Summary) => `${f(s.p50)} / ${f(s.p99)}`.padEnd(16);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${f(x)}`;

function callLine(calls: CallTable): string {
  return Object.entries(calls).map(([k, c]) => `${k} ${c.count}x ${f((c.seconds / c.count) * 1000)} ms`).join('; ');
}

export function printResults(run: Record<string, unknown>, results: TopologyResult[]): void {
  console.log('admission benchmark: clients in the benchmark process (src/client createHttpClient, HTTPS, 127.0.0.1), sequential unless noted');
  console.log(`machine: ${run.cores} cores (${run.cpu}), ${run.memGiB} GiB, node ${run.node}, load avg ${JSON.stringify(run.loadAvgBefore)} -> ${JSON.stringify(run.loadAvgAfter)}, ${run.seconds} s, n=${run.n} per side`);
  for (const t of results) {
    console.log(`\ntopology ${t.topology}: ${describe[t.topology]} (ready in ${t.setupSeconds} s)`);
    console.log(`  ${'case'.padEnd(24)}${'base p50/p99 ms'.padEnd(18)}${'hooked p50/p99'.padEnd(18)}${'added p50/p99 ms'.padEnd(18)}ratio p50/p99  calls ok`);
    for (const c of t.cases) {
      console.log(`  ${c.name.padEnd(24)}${pair(c.base)}  ${pair(c.hooked)}  ${`${signed(c.addedP50Ms)} / ${signed(c.addedP99Ms)}`.padEnd(16)}  ${`${f(c.ratioP50)} / ${f(c.ratioP99)}`.padEnd(13)}  ${c.verified ? 'yes' : 'NO'}`);
      console.log(`    ${c.seconds} s; webhook calls (mean): ${callLine(c.calls)}`);
    }
    const k = t.concurrent;
    console.log(`  ${`pods x${k.clients} clients`.padEnd(24)}${pair(k.base)}  ${pair(k.hooked)}  ${`${signed(k.addedP50Ms)} / ${signed(k.addedP99Ms)}`.padEnd(16)}  ${`${f(k.ratioP50)} / ${f(k.ratioP99)}`.padEnd(13)}  ${k.verified ? 'yes' : 'NO'}`);
    console.log(`    ${k.seconds} s; throughput: ${k.base.perSec}/s without, ${k.hooked.perSec}/s with webhooks (ratio ${f(k.ratioPerSec)}); webhook calls (mean): ${callLine(k.calls)}`);
  }
  console.log('');
  for (const t of results) {
    for (const c of t.cases.filter((x) => x.name !== 'cloneset-vs-configmap')) {
      console.log(`goal ${c.addedP50Ms < goalMs ? 'met   ' : 'MISSED'} ${t.topology} ${c.name}: added p50 ${signed(c.addedP50Ms)} ms < ${goalMs} ms`);
    }
  }
}
