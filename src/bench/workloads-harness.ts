/**
 * The measuring harness of `bench:workloads` (the types are in workloads-scenario.ts). A scenario gets a fresh environment (plane in this
 * process, `kruise manager` as a child) and measures phases with it: a phase is one write by the
 * benchmark (create, image change) and the milestones that follow in the store. For each phase the
 * harness diffs the manager's API writes (server-side count by User-Agent), its CPU seconds and
 * reconciles, this process's CPU seconds and the admission webhook calls, over the window from the
 * write to the last milestone plus a quiet period with no manager write.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { progressOn } from '../machinery/progress.js';
import { benchGates, diffCalls, parseCalls, startManager, type CallTable, type ManagerProc } from './admission-procs.js';
import { agents, startBenchPlane, type BenchPlane } from './workloads-plane.js';
import { diffReconciles, parseReconciles, procUsage, scrapeMetrics, selfCpuSeconds, type ProcUsage, type Reconciles } from './workloads-proc.js';
import { diffRequests, type RequestTable } from './workloads-requests.js';
import type { BenchEnv, BenchOptions, PhaseResult, PhaseSpec, Scenario, ScenarioResult } from './workloads-scenario.js';
import { StageRecorder } from './workloads-stages.js';
import { profilePhase } from './workloads-profile.js';
import { untilWebhooksServe } from './workloads-webhooks.js';

interface Snapshot {
  requests: RequestTable;
  usage: ProcUsage;
  planeCpu: number;
  reconciles: Record<string, Reconciles>;
  calls: CallTable;
  /** The manager's webhook handler histogram, by path. */
  handlerCalls: CallTable;
}

const quietMs = 500;
/** On stderr, so the tables on stdout stay clean when piped (docs/design/manager.md §13). */
const progress = progressOn(process.stderr);
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function runScenario(scenario: Scenario, options: BenchOptions): Promise<ScenarioResult> {
  const started = performance.now();
  progress.line(`${scenario.name}: starting the plane (${options.nodes} nodes) and kruise manager`);
  const plane = await startBenchPlane(options);
  let manager: ManagerProc | undefined;
  try {
    manager = await startManager(plane.kubeconfig);
    await untilWebhooksServe(plane);
    const managerWatches = await watchesOnceReady(plane, manager);
    const setupSeconds = round((performance.now() - started) / 1000, 1);
    const managerIdle = await procUsage(manager.child.pid!);
    progress.line(`${scenario.name}: ready in ${setupSeconds} s`);
    const env: BenchEnv = { plane, manager, options, measure: (spec) => measure(plane, manager!, spec, options.timeoutMs, scenario.name) };
    const outcome = await scenario.run(env);
    return { name: scenario.name, title: scenario.title, setupSeconds, managerIdle, managerWatches, ...outcome, manager: await procUsage(manager.child.pid!), seconds: round((performance.now() - started) / 1000, 1) };
  } finally {
    await manager?.stop();
    await plane.stop();
  }
}

/** The watches the manager opened by kind, once its caches synced (/readyz) and a second later their watches run. */
async function watchesOnceReady(plane: BenchPlane, manager: ManagerProc): Promise<Record<string, number>> {
  const readyz = manager.metricsUrl.replace(/\/metrics$/, '/readyz');
  for (let i = 0; i < 300 && !(await fetch(readyz).then((r) => r.ok, () => false)); i++) await sleep(100);
  await sleep(1000);
  return plane.requests.watches(agents.manager);
}

async function snapshot(plane: BenchPlane, manager: ManagerProc): Promise<Snapshot> {
  const [usage, metrics, calls] = await Promise.all([procUsage(manager.child.pid!), scrapeMetrics(manager.metricsUrl), plane.webhookCalls()]);
  return { requests: plane.requests.snapshot(), usage, planeCpu: selfCpuSeconds(), reconciles: parseReconciles(metrics), calls, handlerCalls: parseCalls(metrics) };
}

async function measure(plane: BenchPlane, manager: ManagerProc, spec: PhaseSpec, timeoutMs: number, scenario: string): Promise<PhaseResult> {
  const before = await snapshot(plane, manager);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const t0 = performance.now();
  const recorder = spec.stages && new StageRecorder(spec.stages.watch, spec.stages.list, t0);
  const stopProfile = await profilePhase(scenario, spec.name);
  await spec.start();
  let reached = 0;
  const done = new Set<number>();
  // the first milestone not reached with its count, so a slow rollout does not read as a stalled one
  const pending = () => {
    const i = spec.milestones.findIndex((_, j) => !done.has(j));
    const m = spec.milestones[i];
    return m ? `, ${m.name} ${m.watch.items().filter(m.match).length}/${m.count}` : '';
  };
  const ticker = setInterval(() => progress.live(`${scenario}/${spec.name}: ${Math.round((performance.now() - t0) / 1000)} s, ${reached}/${spec.milestones.length} milestones${pending()}`), 1000);
  const times = await Promise.all(spec.milestones.map((m, i) => m.watch.until(`${spec.name}: ${m.name}`, m, timeoutMs).then((t) => { reached++; done.add(i); return t; })))
    .finally(() => clearInterval(ticker));
  progress.line(`${scenario}/${spec.name}: done in ${round((Math.max(...times) - t0) / 1000, 1)} s`);
  const stages = recorder?.stop();
  const profile = await stopProfile();
  if (profile) progress.line(`${scenario}/${spec.name}: plane CPU profile in ${profile}`);
  // Trailing status writes belong to the phase: wait until the manager has been quiet for a while.
  const quietBy = performance.now() + 5_000;
  while (performance.now() - plane.requests.lastWriteAt(agents.manager) < quietMs && performance.now() < quietBy) await sleep(100);
  loop.disable();
  const after = await snapshot(plane, manager);
  const requests = diffRequests(after.requests, before.requests);
  const own = requests[agents.manager] ?? { reads: 0, writes: 0, failedWrites: 0, writeMs: 0, byKind: {} };
  const milestones = Object.fromEntries(spec.milestones.map((m, i) => [m.name, round((times[i]! - t0) / 1000)]));
  const otherWrites = Object.fromEntries(Object.entries(requests).filter(([a, r]) => a !== agents.manager && r.writes > 0).map(([a, r]) => [a, r.writes]));
  return {
    name: spec.name, pods: spec.pods, seconds: milestones[spec.done]!, milestones,
    managerWrites: own.writes, managerFailedWrites: own.failedWrites, writesPerPod: round(own.writes / spec.pods), writesByKind: own.byKind,
    otherWrites, kubeletWrites: requests[agents.kubelet]?.byKind ?? {}, managerReads: own.reads, managerWriteMs: round(own.writes ? own.writeMs / own.writes : 0, 1),
    planeLoopDelayMs: { p50: round(loop.percentile(50) / 1e6, 1), p99: round(loop.percentile(99) / 1e6, 1), max: round(loop.max / 1e6, 1) },
    managerCpuSeconds: round(after.usage.cpuSeconds - before.usage.cpuSeconds), planeCpuSeconds: round(after.planeCpu - before.planeCpu),
    managerRssMiB: after.usage.rssMiB,
    reconciles: diffReconciles(after.reconciles, before.reconciles),
    webhookCalls: callStats(diffCalls(after.calls, before.calls)),
    webhookHandler: callStats(diffCalls(after.handlerCalls, before.handlerCalls)),
    stages,
  };
}

const callStats = (t: CallTable) => Object.fromEntries(Object.entries(t).map(([k, c]) => [k, { count: c.count, meanMs: round((c.seconds / c.count) * 1000, 1) }]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { benchGates };
