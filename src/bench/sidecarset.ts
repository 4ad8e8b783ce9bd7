/**
 * `npm run bench:sidecarset` (docs/design/sidecarset.md §11):
 * 1. Pod create latency through the API with the pod webhook over HTTPS, with 0, 1 and 10
 *    SidecarSets selecting the pod (p50/p99 side by side; goal: each SidecarSet adds < 0.3 ms p50).
 * 2. In-place sidecar upgrade of PODS pods with maxUnavailable 10 %: time from the image change to
 *    updatedReadyPods = PODS, manager writes per pod, CPU of this process (API server, kubelets and
 *    manager together: they share it) and the number of SidecarSet reconciles; goal: within 1.5 × restart time × 10 waves.
 */
import type { Pod } from '../api/core/index.js';
import { SidecarSets } from '../api/kruise/resource-types.js';
import { Pods } from '../api/resource-type.js';
import { setupSidecarSetController, SidecarSetReconciler } from '../controllers/sidecarset/index.js';
import type { SidecarSet } from '../control/sidecarcontrol/index.js';
import { startKruiseTestEnv } from '../testing/kruise-env.js';
import { isPodCall } from '../testing/recording-client.js';
import { eventually, startWorkloadEnv } from '../testing/workload-env.js';
import { percentile, writeResults } from './stats.js';

const CREATES = 300;
const PODS = Number(process.env.SIDECAR_BENCH_PODS ?? 1000);
const RESTART_MS = 1000;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

const sidecarSet = (i: number, app: string): SidecarSet => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: `agent-${i}` },
  spec: { selector: { matchLabels: { app } }, containers: [{ name: `agent-${i}`, image: 'busybox:1.35', command: ['sleep', '3600'], volumeMounts: [{ name: `logs-${i}`, mountPath: `/logs/${i}` }] }],
    volumes: [{ name: `logs-${i}`, emptyDir: {} }] },
} as SidecarSet);

const pod = (name: string, app: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } });

async function createLatency(): Promise<Record<string, Record<string, number>>> {
  const env = await startKruiseTestEnv();
  const out: Record<string, Record<string, number>> = {};
  try {
    for (const sets of [0, 1, 10]) {
      const app = `app${sets}`;
      for (let i = 0; i < sets; i++) await env.client.create(SidecarSets, sidecarSet(sets * 100 + i, app));
      for (let i = 0; i < 20; i++) await env.client.create(Pods, pod(`warm-${sets}-${i}`, app));
      const ms: number[] = [];
      for (let i = 0; i < CREATES; i++) {
        const t = performance.now();
        const created = await env.client.create<Pod>(Pods, pod(`p-${sets}-${i}`, app));
        ms.push(performance.now() - t);
        if (created.spec.containers.length !== sets + 1) throw new Error(`pod got ${created.spec.containers.length} containers`);
      }
      ms.sort((a, b) => a - b);
      out[`${sets} SidecarSets`] = { p50ms: round(percentile(ms, 50)), p99ms: round(percentile(ms, 99)) };
      for (let i = 0; i < sets; i++) await env.client.delete(SidecarSets, undefined, `agent-${sets * 100 + i}`);
    }
  } finally {
    await env.stop();
  }
  return out;
}

async function upgrade(): Promise<Record<string, number | string>> {
  const writes = { pods: 0, other: 0 };
  let reconciles = 0;
  const reconcile = SidecarSetReconciler.prototype.reconcile;
  SidecarSetReconciler.prototype.reconcile = function (this: SidecarSetReconciler, ...args) { reconciles++; return reconcile.apply(this, args); };
  const w = await startWorkloadEnv({
    nodes: 10, startDelayMs: RESTART_MS,
    around: async (call, send) => { if (isPodCall(call)) writes.pods++; else writes.other++; return send(); },
    controllers: (m) => { setupSidecarSetController(m); },
  });
  try {
    await w.client.create(SidecarSets, { ...sidecarSet(0, 'web'), spec: { ...sidecarSet(0, 'web').spec, updateStrategy: { maxUnavailable: '10%' } } });
    for (let i = 0; i < PODS; i += 50) await Promise.all(Array.from({ length: Math.min(50, PODS - i) }, (_, j) => w.client.create(Pods, pod(`web-${i + j}`, 'web'))));
    await eventually('all pods counted ready', async () => {
      const s = (await w.client.get<SidecarSet>(SidecarSets, undefined, 'agent-0')).status;
      if (process.env.SIDECAR_BENCH_DEBUG) console.log(JSON.stringify(s));
      return s?.readyPods === PODS;
    }, 600_000);
    writes.pods = 0;
    writes.other = 0;
    reconciles = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await w.client.patch(SidecarSets, undefined, 'agent-0', 'merge', { spec: { containers: [{ ...sidecarSet(0, 'web').spec!.containers![0], image: 'busybox:1.36' }] } });
    await eventually('upgrade done', async () => {
      const set = await w.client.get<SidecarSet>(SidecarSets, undefined, 'agent-0');
      return set.status?.observedGeneration === set.metadata.generation && set.status?.updatedReadyPods === PODS;
    }, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const goal = 1.5 * (RESTART_MS / 1000) * 10;
    return {
      pods: PODS, restartMs: RESTART_MS, maxUnavailable: '10%', seconds: round(seconds), goalSeconds: goal, goal: seconds <= goal ? 'met' : 'MISSED',
      managerPodWritesPerPod: round(writes.pods / PODS), managerOtherWrites: writes.other,
      processCpuSeconds: round((used.user + used.system) / 1e6), sidecarSetReconciles: reconciles,
    };
  } finally {
    await w.stop();
  }
}

async function main(): Promise<void> {
  const creates = process.env.SIDECAR_BENCH_SKIP_CREATES ? { '0 SidecarSets': { p50ms: 0, p99ms: 0 } } : await createLatency();
  const base = creates['0 SidecarSets']!.p50ms!;
  console.table(Object.fromEntries(Object.entries(creates).map(([k, v]) => {
    const n = Number(k.split(' ')[0]);
    const perSet = n === 0 ? 0 : round((v.p50ms! - base) / n, 3);
    return [k, { ...v, addedP50msPerSidecarSet: perSet, goal: n === 0 ? '' : perSet < 0.3 ? 'met' : 'MISSED' }];
  })));
  const rollout = await upgrade();
  console.table({ [`in-place upgrade of ${PODS} pods`]: rollout });
  console.log(`written to ${await writeResults('sidecarset', { creates, rollout })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
