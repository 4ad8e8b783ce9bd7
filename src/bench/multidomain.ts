/**
 * `npm run bench:multidomain` (docs/design/workloadspread.md §10), two measurements in one run:
 * 1. Pod create latency through the API server and the pod webhook chain, side by side: a namespace
 *    without WorkloadSpreads, pods of a workload no WorkloadSpread targets (one in the namespace), and
 *    pods of a targeted workload in a bounded subset (a status write per pod). Goal: < 1 ms p50 added.
 *    The owners are CloneSets with no CloneSet controller running, so the pods created stay as they
 *    are while the WorkloadSpread controller sees them (and clears their creatingPods records).
 * 2. A 1,000-replica CloneSet scaled up from 0 under a 3-subset WorkloadSpread (za max 300, zb max
 *    300, zc unbounded) on 12 nodes in zones a/b/c: seconds to all Ready, and subset accuracy (pods per
 *    subset against 300/300/400, and pods on a node of their subset's zone).
 */
import type { Node, Pod } from '../api/core/index.js';
import { CloneSets, WorkloadSpreads } from '../api/kruise/resource-types.js';
import type { KObject } from '../api/meta.js';
import { Namespaces, Nodes, Pods } from '../api/resource-type.js';
import { setupWorkloadSpreadController } from '../controllers/workloadspread/index.js';
import { startWorkloadEnv } from '../testing/workload-env.js';
import { cloneSet, countBySubset, labelZones, livePods, ns, spread, startSpreadEnv, subsetOf, WorkloadSpreadsV1alpha1, zoneTerm } from '../e2e/workloadspread/fixtures.js';
import { percentile, writeResults } from './stats.js';

const CREATES = 400;
const REPLICAS = 1000;
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ownedPod(namespace: string, owner: KObject, i: number): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `${owner.metadata.name}-${i}`, namespace, labels: { app: owner.metadata.name! }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true }] },
    // never scheduled: only admission is measured
    spec: { schedulerName: 'none', containers: [{ name: 'main', image: 'busybox' }] },
  } as Pod;
}

async function podCreateLatency(): Promise<Record<string, Record<string, number>>> {
  const w = await startWorkloadEnv({ nodes: 1, controllers: (m) => { setupWorkloadSpreadController(m); } });
  try {
    const client = w.client;
    await labelZones(client);
    for (const name of [ns, 'plain']) await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const owner = (name: string, namespace: string) => client.create(CloneSets, { ...cloneSet(name, 0), metadata: { name, namespace } });
    const plain = await owner('plain', 'plain');
    const untargeted = await owner('other', ns);
    const targeted = await owner('spread', ns);
    await client.create(WorkloadSpreadsV1alpha1, spread({
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'spread' },
      subsets: [{ name: 'za', maxReplicas: 100_000, requiredNodeSelectorTerm: zoneTerm('a') }, { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') }],
    }));
    const cases: [string, string, KObject][] = [['noWorkloadSpread', 'plain', plain], ['untargetedWorkload', ns, untargeted], ['targetedBoundedSubset', ns, targeted]];
    const samples = new Map(cases.map(([name]) => [name, [] as number[]]));
    for (let i = 0; i < CREATES; i++) {
      for (const [name, namespace, owner] of cases) {
        const started = performance.now();
        await client.create(Pods, ownedPod(namespace, owner, i));
        if (i >= 20) samples.get(name)!.push(performance.now() - started); // the first ones warm caches up
      }
    }
    const out: Record<string, Record<string, number>> = {};
    const base = samples.get('noWorkloadSpread')!.sort((a, b) => a - b);
    for (const [name, list] of samples) {
      list.sort((a, b) => a - b);
      out[name] = {
        p50Ms: round(percentile(list, 50)), p99Ms: round(percentile(list, 99)),
        addedP50Ms: round(percentile(list, 50) - percentile(base, 50)), addedP99Ms: round(percentile(list, 99) - percentile(base, 99)),
      };
    }
    return out;
  } finally {
    await w.stop();
  }
}

async function scaleUp(): Promise<Record<string, number | string>> {
  const w = await startSpreadEnv({ nodes: 12 });
  try {
    const client = w.client;
    await client.create(WorkloadSpreadsV1alpha1, spread({
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'big' },
      subsets: [
        { name: 'za', maxReplicas: 300, requiredNodeSelectorTerm: zoneTerm('a') },
        { name: 'zb', maxReplicas: 300, requiredNodeSelectorTerm: zoneTerm('b') },
        { name: 'zc', requiredNodeSelectorTerm: zoneTerm('c') },
      ],
    }, 'big'));
    await client.create(CloneSets, cloneSet('big', 0));
    const zoneOfNode = new Map((await client.list<Node>(Nodes)).items.map((n) => [n.metadata.name!, n.metadata.labels?.zone]));
    const started = performance.now();
    await client.patch(CloneSets, ns, 'big', 'merge', { spec: { replicas: REPLICAS } });
    let pods: Pod[] = [];
    for (;;) {
      pods = await livePods(client, 'big');
      const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
      if (ready >= REPLICAS) break;
      if (performance.now() - started > 600_000) throw new Error(`only ${ready} ready after 10 min`);
      await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    const counts = countBySubset(pods);
    const misplaced = pods.filter((p) => zoneOfNode.get(p.spec.nodeName ?? '') !== subsetOf(p)?.slice(1)).length;
    const ws = await client.get<KObject & { status?: { subsetStatuses?: { name: string; replicas: number }[] } }>(WorkloadSpreads, ns, 'big');
    return {
      replicas: REPLICAS, nodes: 12, secondsToAllReady: round(seconds, 2),
      za: counts.za ?? 0, zb: counts.zb ?? 0, zc: counts.zc ?? 0, expected: '300/300/400',
      accurate: counts.za === 300 && counts.zb === 300 && counts.zc === 400 && misplaced === 0 ? 'yes' : 'NO',
      podsOutsideTheirZone: misplaced,
      statusReplicas: (ws.status?.subsetStatuses ?? []).map((s) => `${s.name}=${s.replicas}`).join(' '),
    };
  } finally {
    await w.stop();
  }
}

async function main(): Promise<void> {
  const latency = await podCreateLatency();
  console.log(`pod create through the webhook chain, ${CREATES - 20} samples each`);
  console.table(latency);
  const goal = latency.targetedBoundedSubset.addedP50Ms < 1 ? 'met' : 'MISSED';
  console.log(`goal < 1 ms p50 added per pod create (targeted, bounded subset): ${latency.targetedBoundedSubset.addedP50Ms} ms, ${goal}`);
  if (process.argv.includes('--latency-only')) process.exit(0);
  const scale = await scaleUp();
  console.log('1,000-replica CloneSet scale-up under a 3-subset WorkloadSpread');
  console.table([scale]);
  console.log(`written to ${await writeResults('multidomain', { latency, goal, scale })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
