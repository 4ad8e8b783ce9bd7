/**
 * `npm run bench:admission` (issue 6): what the Kruise admission webhooks add to a create, measured
 * side by side in one run. Per topology (`split`: API server process + `kruise manager` process;
 * `up`: webhooks inside the API server process, as `kruise up`), clients in this process over HTTPS:
 *   pods        pod create, mpod.kb.io applies   vs  same pod in a namespace the selector excludes
 *   cloneset    CloneSet create (mcloneset+vcloneset)  vs  ConfigMap create, same plane
 *   bare        CloneSet create                  vs  CloneSet create on a plane with no webhooks
 *   concurrent  pod creates from --clients workers, with vs without mpod.kb.io (throughput)
 * Options: --n <creates per side per case> (default 1000), --clients 16, --topology split|up|both.
 * Each case warms up, then alternates batches of the two sides; webhook call counts from both
 * processes' /metrics prove the hooked side called each webhook once per create and the base side none.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { cloneSetCreates, configMapCreates, createNamespaces, excludedNamespace, hookedNamespace, podCreates } from './admission-cases.js';
import { compare, concurrentPair, sequentialPair, summarize, type Op } from './admission-measure.js';
import { diffCalls, scrapeCalls, startManager, startPlane, type CallTable, type ManagerProc, type Plane } from './admission-procs.js';
import { printResults, type CaseResult, type TopologyResult } from './admission-report.js';
import { writeResults } from './stats.js';

const warmup = 30;
const legend = {
  'pods': 'base: pod create in a namespace labelled control-plane=openkruise (pod webhooks excluded); hooked: the same pod where mpod.kb.io applies',
  'cloneset-vs-configmap': 'base: ConfigMap create; hooked: apps.kruise.io/v1beta1 CloneSet create (mcloneset + vcloneset), same plane',
  'cloneset-vs-bare-plane': 'base: CloneSet create on a plane with the Kruise CRDs but no webhook configurations; hooked: CloneSet create with mcloneset + vcloneset',
  'concurrent': 'pods, as above, from --clients concurrent workers',
  'calls': 'webhook calls during the case: by name, the API server view (request to response); by path, the webhook server handler',
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '1000' }, clients: { type: 'string', default: '16' }, topology: { type: 'string', default: 'both' } } });
  const n = Number(values.n);
  const clients = Number(values.clients);
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(clients) || clients < 1) throw new Error('--n and --clients must be positive integers');
  if (!['split', 'up', 'both'].includes(values.topology!)) throw new Error('--topology must be split, up or both');
  const topologies = values.topology === 'both' ? ['split', 'up'] as const : [values.topology as 'split' | 'up'];
  const machine = { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAvgBefore: os.loadavg().map((x) => Math.round(x * 100) / 100) };
  const started = performance.now();
  const bare = await startPlane('bare');
  const results: TopologyResult[] = [];
  try {
    await createNamespaces(bare.client);
    for (const t of topologies) results.push(await runTopology(t, bare, n, clients));
  } finally {
    await bare.stop();
  }
  const run = { ...machine, loadAvgAfter: os.loadavg().map((x) => Math.round(x * 100) / 100), seconds: seconds(started), n, clients };
  printResults(run, results);
  console.log(`written to ${await writeResults('admission', { run, legend, topologies: results })}`);
  const unverified = results.flatMap((t) => [...t.cases, { ...t.concurrent, name: 'concurrent' }].filter((c) => !c.verified).map((c) => `${t.topology} ${c.name}`));
  if (unverified.length) console.error(`webhook call counts not as expected in: ${unverified.join(', ')}; those numbers do not measure the chain`);
  process.exit(unverified.length ? 2 : 0);
}

async function runTopology(topology: 'split' | 'up', bare: Plane, n: number, clients: number): Promise<TopologyResult> {
  const started = performance.now();
  const plane = await startPlane(topology);
  let manager: ManagerProc | undefined;
  try {
    await createNamespaces(plane.client);
    if (topology === 'split') manager = await startManager(plane.kubeconfig);
    await untilWebhooksServe(plane, manager);
    const setupSeconds = seconds(started);
    const c = plane.client;
    const measure = (name: string, base: Op, hooked: Op, expect: Record<string, number>) => sequentialCase(plane, manager, name, base, hooked, n, expect);
    const cases = [
      await measure('pods', podCreates(c, excludedNamespace, 'off'), podCreates(c, hookedNamespace, 'on'), { 'mpod.kb.io': 1 }),
      await measure('cloneset-vs-configmap', configMapCreates(c, 'cm'), cloneSetCreates(c, 'cs'), { 'mcloneset.kb.io': 1, 'vcloneset.kb.io': 1 }),
      await measure('cloneset-vs-bare-plane', cloneSetCreates(bare.client, `bare-${topology}`), cloneSetCreates(c, 'cs2'), { 'mcloneset.kb.io': 1, 'vcloneset.kb.io': 1 }),
    ];
    const concurrentStarted = performance.now();
    const [off, on] = [podCreates(c, excludedNamespace, 'coff'), podCreates(c, hookedNamespace, 'con')];
    await concurrentPair(off, on, 4 * clients, clients, 2); // opens every client and webhook connection
    const before = await scrapeCalls(plane, manager);
    const [base, hooked] = await concurrentPair(off, on, n, clients);
    const calls = diffCalls(await scrapeCalls(plane, manager), before);
    const concurrent = { clients, base, hooked, ratioPerSec: Math.round((hooked.perSec / base.perSec) * 100) / 100, ...compare(base, hooked), calls, verified: verify(calls, { 'mpod.kb.io': n }), seconds: seconds(concurrentStarted) };
    return { topology, setupSeconds, cases, concurrent };
  } finally {
    await manager?.stop();
    await plane.stop();
  }
}

async function sequentialCase(plane: Plane, manager: ManagerProc | undefined, name: string, base: Op, hooked: Op, n: number, expectPerCreate: Record<string, number>): Promise<CaseResult> {
  const started = performance.now();
  const before = await scrapeCalls(plane, manager);
  for (let i = 0; i < warmup; i++) {
    await base();
    await hooked();
  }
  const [b, h] = await sequentialPair(base, hooked, n);
  const calls = diffCalls(await scrapeCalls(plane, manager), before);
  const expected = Object.fromEntries(Object.entries(expectPerCreate).map(([k, v]) => [k, v * (n + warmup)]));
  const baseSummary = summarize(b);
  const hookedSummary = summarize(h);
  return { name, base: baseSummary, hooked: hookedSummary, ...compare(baseSummary, hookedSummary), calls, verified: verify(calls, expected), seconds: seconds(started) };
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/** Every expected webhook was called exactly as often as the hooked side created (so the base side called none). */
function verify(calls: CallTable, expected: Record<string, number>): boolean {
  return Object.entries(expected).every(([k, v]) => calls[k]?.count === v);
}

/** A pod create in the hooked namespace succeeds and reaches mpod.kb.io (the manager has synced its configurations). */
async function untilWebhooksServe(plane: Plane, manager: ManagerProc | undefined): Promise<void> {
  const probe = podCreates(plane.client, hookedNamespace, 'probe');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await probe().then(async () => ((await scrapeCalls(plane, manager))['mpod.kb.io']?.count ?? 0) > 0, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error('pod webhook not called within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
