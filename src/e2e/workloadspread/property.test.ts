/**
 * Property test of WorkloadSpread (docs/design/workloadspread.md §10): a CloneSet and a Deployment,
 * each under a WorkloadSpread (za max 2, zb max 3, zc unbounded, each subset patching label
 * `tier`), go through a seeded random sequence of scale ups and downs, pod deletions and
 * evictions and manager crashes. Checked all along: no subset ever holds more active pods than its
 * maxReplicas. After settling: every pod sits in a subset and carries its patch, and a scale-in
 * removes pods from the last subsets first. Replay: WS_PROPERTY_SEED=<seed>.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { Deployments, Pods } from '../../api/resource-type.js';
import type { ResourceType } from '../../api/resource-type.js';
import { holds } from '../../testing/workload-env.js';
import {
  cloneSet, costOf, countBySubset, deployment, eventually, livePods, ns, spread, startSpreadEnv, subsetOf, WorkloadSpreadsV1alpha1, zoneTerm,
  type Pod, type WorkloadEnv,
} from './fixtures.js';

const seed = Number(process.env.WS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const steps = Number(process.env.WS_PROPERTY_STEPS ?? 14);
const max: Record<string, number> = { za: 2, zb: 3 };

function rng(s: number): () => number {
  let x = s || 1;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

let w: WorkloadEnv;
before(async () => { w = await startSpreadEnv({ nodes: 3 }); });
after(() => w.stop());

const subsets = ['za', 'zb', 'zc'].map((name, i) => ({
  name, requiredNodeSelectorTerm: zoneTerm('abc'[i]), ...(max[name] !== undefined && { maxReplicas: max[name] }),
  patch: { metadata: { labels: { tier: name } } },
}));
const apps: { app: string; type: ResourceType; target: Record<string, string> }[] = [
  { app: 'pcs', type: CloneSets, target: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'pcs' } },
  { app: 'pdep', type: Deployments, target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'pdep' } },
];

function overMax(pods: Pod[]): string | undefined {
  const counts = countBySubset(pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed'));
  const broken = Object.entries(max).find(([name, m]) => (counts[name] ?? 0) > m);
  return broken && `${broken[0]} holds ${counts[broken[0]]} > ${broken[1]}: ${JSON.stringify(counts)}`;
}

const scale = (a: (typeof apps)[number], replicas: number) => w.client.patch(a.type, ns, a.app, 'merge', { spec: { replicas } });

async function settled(a: (typeof apps)[number], replicas: number): Promise<Pod[]> {
  return eventually(`${a.app} settled at ${replicas}`, async () => {
    const pods = await livePods(w.client, a.app);
    const all = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${a.app}` })).items;
    return all.length === replicas && pods.every((p) => p.status?.phase === 'Running' && costOf(p) && subsetOf(p)) ? pods : undefined;
  }, 60_000);
}

test(`random scaling, pod deletions, evictions and manager crashes keep every subset within maxReplicas (seed ${seed})`, { timeout: 240_000 }, async (t) => {
  t.diagnostic(`replay: WS_PROPERTY_SEED=${seed}`);
  const random = rng(seed);
  for (const a of apps) {
    await w.client.create(WorkloadSpreadsV1alpha1, spread({ targetRef: a.target, subsets }, a.app));
    await w.client.create(a.type, a.type === CloneSets ? cloneSet(a.app, 3) : deployment(a.app, 3));
  }
  const invariant = async () => {
    for (const a of apps) {
      const broken = overMax(await livePods(w.client, a.app));
      if (broken) return `${a.app}: ${broken}`;
    }
    return undefined;
  };
  for (let i = 0; i < steps; i++) {
    const a = apps[Math.floor(random() * apps.length)];
    const roll = random();
    if (roll < 0.5) await scale(a, Math.floor(random() * 9));
    else if (roll < 0.8) {
      const pods = await livePods(w.client, a.app);
      const victim = pods[Math.floor(random() * pods.length)];
      if (victim && roll < 0.65) await w.client.delete(Pods, ns, victim.metadata.name!).catch(() => undefined);
      else if (victim) await w.client.createSubresource(Pods, ns, victim.metadata.name!, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim.metadata.name, namespace: ns } }).catch(() => undefined);
    } else await w.restartManager({ crash: true, downMs: Math.floor(random() * 500) });
    await holds('no subset over maxReplicas', invariant, 100 + Math.floor(random() * 600));
  }
  for (const a of apps) {
    await scale(a, 8);
    const pods = await settled(a, 8);
    assert.equal(overMax(pods), undefined);
    for (const p of pods) assert.equal(p.metadata.labels?.tier, subsetOf(p), `${p.metadata.name} carries its subset's patch`);
    const before = countBySubset(pods);
    await scale(a, 3);
    const left = countBySubset(await settled(a, 3));
    const za = Math.min(before.za ?? 0, 3);
    const zb = Math.min(before.zb ?? 0, 3 - za);
    const expected: Record<string, number> = { za, zb, zc: 3 - za - zb };
    for (const k of Object.keys(expected)) if (expected[k] === 0) delete expected[k];
    assert.deepEqual(left, expected, `${a.app}: scale-in from ${JSON.stringify(before)} keeps the first subsets`);
  }
});
