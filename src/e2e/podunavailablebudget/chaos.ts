/**
 * The zero-breach property of docs/design/podunavailablebudget.md §10: random deletes, evictions,
 * image changes and manager crashes against a Deployment and a CloneSet, each under a PUB, while a
 * watcher samples every 100 ms how many of each workload's pods are available. Shared by the test
 * (few fault points) and `bench:protection` (many).
 */
import { CloneSets, PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { Deployments, Pods } from '../../api/resource-type.js';
import { isPubAvailable } from '../../control/pubcontrol/index.js';
import { seededRandom } from '../../cluster/scheduler/rng.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { deployment, eventually, livePods, namespace, pubCounters, readyPods, startPubEnv } from './fixtures.js';

export interface ChaosResult {
  faults: number;
  admitted: number;
  refused: number;
  restarts: number;
  samples: number;
  /** How long the sampler ran: faults and the recovery after them. */
  sampledMs: number;
  breaches: string[];
}

const ns = 'chaos';
const replicas = 5;
const images = ['nginx:1.25-alpine', 'nginx:1.26-alpine'];
const apps = ['dep', 'cs'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setUp(w: WorkloadEnv): Promise<void> {
  await namespace(w.client, ns);
  await w.client.create(Deployments, deployment(ns, 'dep', replicas));
  await w.client.create(CloneSets, {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'cs', namespace: ns },
    spec: {
      replicas, selector: { matchLabels: { app: 'cs' } },
      updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: replicas } },
      template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'main', image: images[0] }] } },
    },
  });
  await readyPods(w.client, ns, 'dep', replicas, 30_000);
  await readyPods(w.client, ns, 'cs', replicas, 30_000);
  const pub = (name: string, apiVersion: string, kind: string, maxUnavailable: number | string) => ({
    apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: { name, namespace: ns },
    spec: { targetRef: { apiVersion, kind, name }, maxUnavailable },
  });
  await w.client.create(PodUnavailableBudgets, pub('dep', 'apps/v1', 'Deployment', 1));
  await w.client.create(PodUnavailableBudgets, pub('cs', 'apps.kruise.io/v1beta1', 'CloneSet', '20%'));
  for (const app of apps) {
    await pubCounters(w.client, ns, app, { total: replicas, desired: replicas - 1, current: replicas, allowed: 1 }, 30_000);
    await eventually(`${app} pods bound`, async () => (await livePods(w.client, ns, app)).every((p) => !!p.metadata.annotations?.['pub.kruise.io/related-pub']));
  }
}

type TracedPod = Parameters<typeof isPubAvailable>[0];

/** One history line of the trace: per app the available count, the PUB's numbers and maps. */
async function traceLine(w: WorkloadEnv, sample: number, pods: TracedPod[]): Promise<string> {
  const parts = await Promise.all(apps.map(async (app) => {
    const pub = await w.client.get<KObject & { status?: Record<string, unknown> }>(PodUnavailableBudgets, ns, app);
    const s = pub.status ?? {};
    const names = (m: unknown) => Object.keys((m ?? {}) as object).map((n) => n.slice(-5)).join(',');
    const available = pods.filter((p) => p.metadata.labels?.app === app && isPubAvailable(p)).map((p) => p.metadata.name!.slice(-5));
    return `${app} avail ${available.length} [${available.join(',')}] pub rv ${pub.metadata.resourceVersion} cur ${String(s.currentAvailable)} allowed ${String(s.unavailableAllowed)} disrupted {${names(s.disruptedPods)}} unavailable {${names(s.unavailablePods)}}`;
  }));
  return `${new Date().toISOString().slice(11, 23)} #${sample} ${parts.join(' | ')}`;
}

/** Samples every 100 ms until stopped; a sample below desiredAvailable is a breach. */
function watch(w: WorkloadEnv, result: ChaosResult): () => Promise<void> {
  let running = true;
  const started = performance.now();
  const history: string[] = [];
  const loop = (async () => {
    while (running) {
      const pods = (await w.client.list(Pods, { namespace: ns })).items as TracedPod[];
      if (process.env.PUB_CHAOS_TRACE) history.push(await traceLine(w, result.samples, pods));
      if (history.length > 10) history.shift();
      for (const app of apps) {
        const available = pods.filter((p) => p.metadata.labels?.app === app && isPubAvailable(p)).length;
        if (available < replicas - 1) result.breaches.push(`${app}: ${available} available at sample ${result.samples}`);
        if (available < replicas - 1 && process.env.PUB_CHAOS_TRACE) {
          const pub = await w.client.get<KObject & { status?: unknown }>(PodUnavailableBudgets, ns, app);
          console.log(`history before sample ${result.samples}:\n${history.join('\n')}`);
          console.log(JSON.stringify({ sample: result.samples, app, pub: pub.status, pods: pods.filter((p) => p.metadata.labels?.app === app).map((p) => ({
            name: p.metadata.name, del: !!p.metadata.deletionTimestamp, phase: p.status?.phase, labels: p.metadata.labels, ann: p.metadata.annotations,
            conds: p.status?.conditions?.map((c) => `${c.type}=${c.status}`), images: p.spec?.containers?.map((c) => c.image),
            cs: p.status?.containerStatuses?.map((c) => ({ image: c.image, id: c.imageID, ready: c.ready, rc: c.restartCount })),
          })) }));
        }
      }
      result.samples++;
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await loop;
    result.sampledMs = performance.now() - started;
  };
}

/** At a stall: every pod not available, whole, with its workload's PUB status. */
async function dumpUnavailable(w: WorkloadEnv): Promise<void> {
  const pods = (await w.client.list(Pods, { namespace: ns })).items as TracedPod[];
  for (const app of apps) {
    const pub = await w.client.get<KObject & { status?: unknown }>(PodUnavailableBudgets, ns, app);
    const down = pods.filter((p) => p.metadata.labels?.app === app && !isPubAvailable(p));
    console.log(`stall ${new Date().toISOString()} ${app}: pub ${JSON.stringify(pub.status)}\n${down.map((p) => JSON.stringify({ metadata: p.metadata, spec: { containers: p.spec?.containers, readinessGates: p.spec?.readinessGates }, status: p.status })).join('\n')}`);
  }
}

async function fault(w: WorkloadEnv, rnd: () => number, result: ChaosResult): Promise<void> {
  const app = apps[Math.floor(rnd() * apps.length)];
  const kind = rnd();
  if (kind < 0.05) {
    result.restarts++;
    await w.restartManager({ crash: true, downMs: Math.floor(rnd() * 300) });
    return;
  }
  if (kind < 0.2) {
    const image = images[Math.floor(rnd() * images.length)];
    const template = { spec: { containers: [{ name: 'main', image }] } };
    if (app === 'dep') await w.client.patch(Deployments, ns, 'dep', 'strategic', { spec: { template } });
    else await w.client.patch(CloneSets, ns, 'cs', 'merge', { spec: { template } });
    return;
  }
  const pods = await livePods(w.client, ns, app);
  if (pods.length === 0) return;
  const name = pods[Math.floor(rnd() * pods.length)].metadata.name!;
  try {
    if (kind < 0.6) await w.client.delete(Pods, ns, name);
    else await w.client.createSubresource(Pods, ns, name, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } });
    result.admitted++;
  } catch (e) {
    const err = e as { code?: number; message?: string };
    if (err.code === 403 && err.message?.includes('pub unavailable allowed is negative')) result.refused++;
    // gone meanwhile: a 404, or for an eviction the webhook's 400 (it reads the pod first, as upstream's)
    else if (err.code !== 404 && !(err.code === 400 && /pods "[^"]+" not found/.test(err.message ?? ''))) throw e;
  }
}

/** Runs `faults` fault points from `workers` concurrent drivers; the env is started and stopped here. */
export async function runPubChaos(options: { faults: number; workers?: number; seed?: number; gates?: string }): Promise<ChaosResult> {
  const w = await startPubEnv({ nodes: 3, gates: options.gates ?? 'PodUnavailableBudgetUpdateGate=true', startDelayMs: 200 });
  const result: ChaosResult = { faults: 0, admitted: 0, refused: 0, restarts: 0, samples: 0, sampledMs: 0, breaches: [] };
  let stop: (() => Promise<void>) | undefined;
  try {
    await setUp(w);
    stop = watch(w, result);
    const rnd = seededRandom(options.seed ?? (Number(process.env.PUB_CHAOS_SEED) || 20261127));
    const workers = options.workers ?? 3;
    await Promise.all(Array.from({ length: workers }, async () => {
      while (result.faults < options.faults) {
        result.faults++;
        await fault(w, rnd, result);
        await sleep(50 + Math.floor(rnd() * 150));
      }
    }));
    // let the rollouts and replacements finish under the watcher too
    await eventually('workloads back to full availability', async () => {
      const pods = (await w.client.list(Pods, { namespace: ns })).items as TracedPod[];
      return apps.every((app) => pods.filter((p) => p.metadata.labels?.app === app && isPubAvailable(p)).length >= replicas);
    }, 90_000).catch(async (e: unknown) => {
      if (process.env.PUB_CHAOS_TRACE) await dumpUnavailable(w);
      throw e;
    });
  } finally {
    await stop?.(); // before the cluster goes: a sampler left running keeps the test process alive
    await w.stop();
  }
  return result;
}
