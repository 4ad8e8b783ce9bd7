/** The printed report of `bench:workloads`: one table per scenario, its facts and goals. */
import type { PhaseResult, ScenarioResult, WebhookStats } from './workloads-scenario.js';
import type { KindStats } from './workloads-requests.js';
import type { Spread, StageSummary } from './workloads-stages.js';

const list = (r: Record<string, number>, unit = '') => Object.entries(r).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}${unit}`).join(', ') || 'none';
const kinds = (r: Record<string, KindStats>) => Object.entries(r).sort((a, b) => b[1].n - a[1].n).map(([k, s]) => {
  const failed = Object.entries(s.failed).map(([code, n]) => `${n}x${code}`).join(' ');
  return `${k} ${s.n} @${(s.ms / s.n).toFixed(1)}${failed ? ` (${failed})` : ''}`;
}).join(', ');
const hooks = (r: Record<string, WebhookStats>) => Object.entries(r).map(([k, c]) => `${k} ${c.count} @${c.meanMs}`).join(', ') || 'none';
const col = (s: string | number, w: number) => String(s).padEnd(w);

function phaseLines(p: PhaseResult): string[] {
  const reconciles = Object.entries(p.reconciles).map(([k, r]) => `${k} ${r.count}x ${r.seconds.toFixed(2)} s`).join(', ') || 'none';
  const failed = p.managerFailedWrites ? ` (${p.managerFailedWrites} failed)` : '';
  return [
    `  ${col(p.name, 34)}${col(p.seconds.toFixed(2), 9)}${col(`${p.managerWrites}${failed}`, 16)}${col(p.writesPerPod.toFixed(2), 9)}${col(p.managerCpuSeconds.toFixed(2), 10)}${col(p.planeCpuSeconds.toFixed(2), 10)}${p.managerRssMiB}`,
    `      ${podWrites(p)}`,
    `      milestones (s): ${list(p.milestones)}`,
    `      manager writes (count, mean API handler ms, failed by code): ${kinds(p.writesByKind)}`,
    `      manager reads ${p.managerReads}; mean API handler time of a manager write ${p.managerWriteMs} ms`,
    `      plane event-loop delay (ms) p50 ${p.planeLoopDelayMs.p50}, p99 ${p.planeLoopDelayMs.p99}, max ${p.planeLoopDelayMs.max}`,
    `      other writers: ${list(p.otherWrites)}`,
    `      kubelet writes: ${kinds(p.kubeletWrites) || 'none'}`,
    `      webhook calls (count, mean ms) as the API server saw them: ${hooks(p.webhookCalls)}; handler time in the manager: ${hooks(p.webhookHandler)}`,
    `      manager reconciles (count, busy time): ${reconciles}`,
    ...(p.stages ? stageLines(p.stages) : []),
  ];
}

/** The figures OpenKruise's manager is compared on: pod writes and 409 Conflicts, each per pod of the phase. */
export function podWrites(p: Pick<PhaseResult, 'pods' | 'writesByKind'>): string {
  let writes = 0;
  let conflicts = 0;
  const verbs: Record<string, number> = {};
  for (const [kind, stats] of Object.entries(p.writesByKind)) {
    conflicts += stats.failed['409'] ?? 0;
    const resource = kind.split(' ')[1] ?? '';
    if (resource !== 'pods' && !resource.startsWith('pods/')) continue;
    writes += stats.n;
    verbs[kind] = stats.n;
  }
  const per = (n: number) => (p.pods ? n / p.pods : 0).toFixed(2);
  return `manager pod writes per pod ${per(writes)} (${list(verbs)}); 409 conflicts per pod ${per(conflicts)} (${conflicts})`;
}

const spread = (s: Spread) => `${s.p50}/${s.p90}/${s.max}`;

function stageLines(s: StageSummary): string[] {
  return [
    `      pods reached (s after start, p50/p90/max): ${Object.entries(s.reached).map(([k, v]) => `${k} ${spread(v)}`).join(', ')}`,
    `      per pod (s, p50/p90/max): ${Object.entries(s.gaps).map(([k, v]) => `${k} ${spread(v)}`).join(', ')}`,
  ];
}

export function printHeader(lines: string[]): void {
  for (const l of lines) console.log(l);
}

export function printScenario(r: ScenarioResult): void {
  console.log(`\n== ${r.name}: ${r.title} (setup ${r.setupSeconds} s, scenario total ${r.seconds} s)`);
  console.log(`  ${col('phase', 34)}${col('time s', 9)}${col('mgr writes', 16)}${col('per pod', 9)}${col('mgr CPU s', 10)}${col('plane CPU', 10)}mgr RSS MiB`);
  for (const p of r.phases) for (const l of phaseLines(p)) console.log(l);
  for (const [k, v] of Object.entries(r.facts)) console.log(`  ${k}: ${v}`);
  console.log(`  manager process: RSS ${r.managerIdle.rssMiB} MiB idle (webhooks serving, before the scenario), ${r.manager.rssMiB} MiB at the end, peak (VmHWM) ${r.manager.peakRssMiB} MiB; CPU ${r.manager.cpuSeconds.toFixed(2)} s over its whole life (setup included)`);
  const watches = Object.entries(r.managerWatches).sort(([a], [b]) => a.localeCompare(b));
  const shared = watches.filter(([, n]) => n > 1).map(([k, n]) => `${k} ${n}`);
  console.log(`  manager watches once ready: ${watches.reduce((t, [, n]) => t + n, 0)} over ${watches.length} kinds; kinds watched more than once: ${shared.join(', ') || 'none'}`);
}

export function printGoals(results: ScenarioResult[]): void {
  console.log('\ngoals:');
  for (const r of results) for (const g of r.goals) console.log(`  ${g.met ? 'met   ' : 'MISSED'} ${r.name}: ${g.name}: ${g.value}`);
}
