/**
 * `npm run bench:protection` (docs/design/podunavailablebudget.md §10, resourcedistribution.md §6):
 * pod delete latency through the pod webhook with 0 and with 1 matching PodUnavailableBudget, side by
 * side (goal: under 2 ms p50 added per guarded delete); ResourceDistribution propagation to 200
 * namespaces (create and a source change); the PUB zero-breach chaos run with 200 fault points.
 */
import { PodUnavailableBudgets, ResourceDistributions } from '../api/kruise/resource-types.js';
import { Namespaces, Pods, Secrets } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { setupResourceDistributionController } from '../controllers/resourcedistribution/index.js';
import { runPubChaos } from '../e2e/podunavailablebudget/chaos.js';
import { barePod, pubCounters, readyPods, startPubEnv } from '../e2e/podunavailablebudget/fixtures.js';
import { startWorkloadEnv } from '../testing/workload-env.js';
import { percentile, writeResults } from './stats.js';

const PODS = 150;
const NAMESPACES = 200;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

async function deleteLatencies(client: Client, ns: string): Promise<number[]> {
  const out: number[] = [];
  // the last pods stay: the budget keeps one available
  for (let i = 0; i < PODS - 10; i++) {
    const started = performance.now();
    await client.delete(Pods, ns, `p-${i}`);
    out.push(performance.now() - started);
  }
  return out.sort((a, b) => a - b);
}

async function podDeletes(): Promise<Record<string, Record<string, number | string>>> {
  const w = await startPubEnv({ nodes: 3 });
  try {
    for (const ns of ['unguarded', 'guarded']) {
      await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await Promise.all(Array.from({ length: PODS }, (_, i) => w.client.create(Pods, barePod(ns, `p-${i}`, { app: 'bench' }))));
      await readyPods(w.client, ns, 'bench', PODS, 120_000);
    }
    // a budget every delete consults and consumes: 99% may be unavailable
    await w.client.create(PodUnavailableBudgets, {
      apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: { name: 'bench', namespace: 'guarded' },
      spec: { selector: { matchLabels: { app: 'bench' } }, maxUnavailable: '99%', protectTotalReplicas: PODS },
    });
    await pubCounters(w.client, 'guarded', 'bench', { total: PODS, desired: 1, current: PODS, allowed: PODS - 1 }, 60_000);
    const none = await deleteLatencies(w.client, 'unguarded');
    const one = await deleteLatencies(w.client, 'guarded');
    const row = (l: number[]) => ({ deletes: l.length, p50Ms: round(percentile(l, 50)), p99Ms: round(percentile(l, 99)) });
    const added = percentile(one, 50) - percentile(none, 50);
    return {
      'pod delete, 0 matching PUB': row(none),
      'pod delete, 1 matching PUB': { ...row(one), addedP50Ms: round(added), goal: added < 2 ? 'met (< 2 ms added at p50)' : 'MISSED (2 ms added at p50)' },
    };
  } finally {
    await w.stop();
  }
}

async function distribution(): Promise<Record<string, number | string>> {
  const w = await startWorkloadEnv({ nodes: 1, gates: 'ResourceDistributionGate=true', controllers: (m) => { setupResourceDistributionController(m); } });
  try {
    await Promise.all(Array.from({ length: NAMESPACES }, (_, i) => w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `rd-${i}`, labels: { fleet: 'bench' } } })));
    const copies = async (value: string) => (await w.client.list<{ metadata: { name?: string }; data?: Record<string, string> }>(Secrets, { fieldSelector: 'metadata.name=fleet' }))
      .items.filter((s) => s.data?.v === value).length;
    const until = async (value: string) => {
      const started = performance.now();
      while ((await copies(value)) < NAMESPACES) await new Promise((r) => setTimeout(r, 20));
      return performance.now() - started;
    };
    const v1 = Buffer.from('1').toString('base64');
    const v2 = Buffer.from('2').toString('base64');
    const created = until(v1);
    await w.client.create(ResourceDistributions, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', metadata: { name: 'fleet' },
      spec: { resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fleet' }, data: { v: v1 } }, targets: { namespaceSelector: { matchLabels: { fleet: 'bench' } } } },
    });
    const createMs = await created;
    const updated = until(v2);
    await w.client.patch(ResourceDistributions, undefined, 'fleet', 'merge', { spec: { resource: { data: { v: v2 } } } });
    const updateMs = await updated;
    return { namespaces: NAMESPACES, createToAllCopiesMs: Math.round(createMs), sourceChangeToAllCopiesMs: Math.round(updateMs) };
  } finally {
    await w.stop();
  }
}

async function main(): Promise<void> {
  const deletes = await podDeletes();
  console.table(deletes);
  const rd = await distribution();
  console.table({ 'ResourceDistribution to 200 namespaces': rd });
  const faults = Number(process.env.PUB_CHAOS_FAULTS ?? 200);
  const chaos = await runPubChaos({ faults });
  const chaosRow = { faults: chaos.faults, admitted: chaos.admitted, refused: chaos.refused, managerCrashes: chaos.restarts, samples: chaos.samples, breaches: chaos.breaches.length, goal: chaos.breaches.length === 0 ? 'met (0 breaches)' : 'MISSED' };
  console.table({ 'PUB chaos (Deployment + CloneSet)': chaosRow });
  console.log(`written to ${await writeResults('protection', { deletes, distribution: rd, chaos: chaosRow })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
