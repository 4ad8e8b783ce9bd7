/**
 * `npm run bench:workloads` (`bench:cloneset` = `--only cloneset`): Kruise workload controllers at
 * scale, each scenario on a fresh embedded cluster (this process: API server with the Kruise CRDs,
 * scheduler, simulated nodes, core controllers) with `kruise manager` as a child process (all
 * Kruise controllers and webhooks), everything on 127.0.0.1. Per phase: time, milestones, the
 * manager's API writes per pod, its CPU seconds and RSS, this process's CPU seconds.
 * Scenarios: `cloneset`, `advancedstatefulset` (Parallel, in place), `advanceddaemonset` (one pod
 * per node: Standard, switch to in place, in place).
 * Options: --only <name,...> (default all), --replicas 1000 (CloneSet), --asts-replicas 300,
 * --nodes 100, --pull-delay-ms 200, --start-delay-ms 100, --max-unavailable 20%, --timeout-s 180 (per phase),
 * --idle-s 60 (the CloneSet's idle window after scale-up).
 *
 * Adding a scenario: a `Scenario` in its own workloads-<name>.ts built like workloads-cloneset.ts
 * (StoreWatch milestones, env.measure per phase, its goals), then one entry in `scenarios` below.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { advancedDaemonSetScenario } from './workloads-ads.js';
import { advancedStatefulSetScenario } from './workloads-asts.js';
import { cloneSetScenario } from './workloads-cloneset.js';
import { benchGates, runScenario } from './workloads-harness.js';
import type { BenchOptions, Scenario, ScenarioResult } from './workloads-scenario.js';
import { printGoals, printHeader, printScenario } from './workloads-report.js';
import { writeResults } from './stats.js';

/** In run order. */
const scenarios: Scenario[] = [cloneSetScenario, advancedStatefulSetScenario, advancedDaemonSetScenario];

const rssGoalMB = 150;

function parseOptions(): { only: Scenario[]; options: BenchOptions } {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' }, replicas: { type: 'string', default: '1000' }, 'asts-replicas': { type: 'string', default: '300' }, nodes: { type: 'string', default: '100' },
      'pull-delay-ms': { type: 'string', default: '200' }, 'start-delay-ms': { type: 'string', default: '100' },
      'max-unavailable': { type: 'string', default: '20%' }, 'timeout-s': { type: 'string', default: '180' }, 'idle-s': { type: 'string', default: '60' },
    },
  });
  const int = (key: keyof typeof values, min: number) => {
    const v = Number(values[key]);
    if (!Number.isInteger(v) || v < min) throw new Error(`--${key} must be an integer >= ${min}, got ${values[key]}`);
    return v;
  };
  if (!/^(\d+|\d+%)$/.test(values['max-unavailable']!)) throw new Error('--max-unavailable must be a count or a percentage, e.g. 20%');
  const names = values.only ? values.only.split(',').map((s) => s.trim()) : scenarios.map((s) => s.name);
  const unknown = names.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  return {
    only: scenarios.filter((s) => names.includes(s.name)),
    options: {
      replicas: int('replicas', 1), astsReplicas: int('asts-replicas', 1), nodes: int('nodes', 1), pullDelayMs: int('pull-delay-ms', 0), startDelayMs: int('start-delay-ms', 0),
      maxUnavailable: values['max-unavailable']!, timeoutMs: int('timeout-s', 1) * 1000, idleSeconds: int('idle-s', 1),
    },
  };
}

const defaultRun = (o: BenchOptions, only: Scenario[]) => only.length === scenarios.length && o.replicas === 1000 && o.astsReplicas === 300 && o.nodes === 100
  && o.pullDelayMs === 200 && o.startDelayMs === 100 && o.maxUnavailable === '20%';

const loadAvg = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

async function main(): Promise<void> {
  const { only, options } = parseOptions();
  const machine = { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAvgBefore: loadAvg() };
  printHeader([
    'workload benchmark: embedded cluster in this process (API server + Kruise CRDs, scheduler, simulated nodes, core controllers),',
    '  `kruise manager --no-leader-elect` as a child process (all Kruise controllers and webhooks, over HTTPS on 127.0.0.1)',
    `machine: ${machine.cores} cores (${machine.cpu}), ${machine.memGiB} GiB, node ${machine.node}, load avg ${JSON.stringify(machine.loadAvgBefore)}`,
    `cluster: ${options.nodes} simulated nodes; simulated delays: image pull ${options.pullDelayMs} ms per image and node, container start ${options.startDelayMs} ms`,
    `manager feature gates: ${benchGates}`,
    'manager writes: create/update/patch/delete requests the API server answered for User-Agent kruise-manager, from the benchmark\'s',
    '  write to the last milestone plus 0.5 s without a manager write; failed ones (conflicts) and Events included; per pod = / pods in the phase',
    'CPU: manager utime+stime from /proc; plane CPU = this process (API server, scheduler, kubelets, core controllers, benchmark)',
  ]);
  const results: ScenarioResult[] = [];
  for (const s of only) {
    const r = await runScenario(s, options);
    const mb = Math.round(r.manager.peakRssMiB * 1.048576);
    r.goals.push({ name: `manager RSS under ${rssGoalMB} MB (peak VmHWM)`, met: mb < rssGoalMB, value: `${mb} MB (${r.manager.peakRssMiB} MiB)` });
    printScenario(r);
    results.push(r);
  }
  printGoals(results);
  const run = { ...machine, loadAvgAfter: loadAvg(), options };
  // Only the full default run replaces bench-results/workloads.json.
  const file = defaultRun(options, only) ? 'workloads' : 'workloads-custom';
  console.log(`\nload avg after ${JSON.stringify(run.loadAvgAfter)}; written to ${await writeResults(file, { run, scenarios: results })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
