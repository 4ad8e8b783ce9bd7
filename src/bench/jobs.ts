/**
 * `npm run bench:jobs`: a BroadcastJob over 500 simulated nodes (docs/design/jobs.md §7). The
 * cluster runs in this process (API server, scheduler, kubelets, core controllers); `kruise manager`
 * runs as a child process so its CPU can be read. Every pod pulls its image (PULL_MS, once per
 * node), starts (START_MS) and runs `sleep RUN_S`: its simulated lifetime. Measured from create to
 * phase completed, once with unlimited parallelism (one wave) and once with parallelism 100 (five
 * waves), against the goal 1.3 × lifetime × waves.
 */
import { BroadcastJobs } from '../api/kruise/resource-types.js';
import type { Pod } from '../api/core/index.js';
import { Namespaces, Pods } from '../api/resource-type.js';
import type { BroadcastJob } from '../controllers/broadcastjob/types.js';
import { startManager } from './admission-procs.js';
import { writeResults } from './stats.js';
import { startBenchPlane } from './workloads-plane.js';
import { procUsage, selfCpuSeconds } from './workloads-proc.js';
import { untilWebhooksServe } from './workloads-webhooks.js';

const NODES = 500;
const PULL_MS = 1000;
const START_MS = 500;
const RUN_S = 2;
const lifetimeSeconds = PULL_MS / 1000 + START_MS / 1000 + RUN_S;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

async function run(parallelism: number | undefined): Promise<Record<string, number | string>> {
  const plane = await startBenchPlane({ nodes: NODES, pullDelayMs: PULL_MS, startDelayMs: START_MS });
  const manager = await startManager(plane.kubeconfig);
  try {
    await untilWebhooksServe(plane);
    await plane.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    const cpu0 = (await procUsage(manager.child.pid!)).cpuSeconds;
    const plane0 = selfCpuSeconds();
    const started = performance.now();
    await plane.client.create(BroadcastJobs, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: { name: 'wide', namespace: 'bench' },
      spec: {
        ...(parallelism ? { parallelism } : {}),
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox:1.36', command: ['sleep', String(RUN_S)] }] } },
      },
    });
    let job: BroadcastJob | undefined;
    const marks: Record<string, number> = {};
    const mark = (name: string, reached: boolean) => { if (reached && marks[name] === undefined) marks[name] = round((performance.now() - started) / 1000); };
    while (job?.status?.phase !== 'completed') {
      await sleep(200);
      job = await plane.client.get<BroadcastJob>(BroadcastJobs, 'bench', 'wide');
      const pods = (await plane.client.list<Pod>(Pods, { namespace: 'bench' })).items;
      mark('firstPodCreated', pods.length > 0);
      mark('allPodsCreated', pods.length === NODES);
      mark('allPodsBound', pods.filter((p) => p.spec.nodeName).length === NODES);
      mark('allPodsSucceeded', pods.filter((p) => p.status?.phase === 'Succeeded').length === NODES);
      if (performance.now() - started > 600_000) throw new Error(`not complete after 10 min: ${JSON.stringify(job.status)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const waves = Math.ceil(NODES / (parallelism ?? NODES));
    const goal = 1.3 * lifetimeSeconds * waves;
    const usage = await procUsage(manager.child.pid!);
    return {
      nodes: NODES, parallelism: parallelism ?? 'unlimited', waves, podLifetimeSeconds: lifetimeSeconds, succeeded: job.status.succeeded ?? 0,
      ...marks, secondsToComplete: round(seconds), goalSeconds: round(goal), goal: seconds <= goal ? 'met' : 'MISSED', ratioToLifetimeXWaves: round(seconds / (lifetimeSeconds * waves)),
      podsPerSecond: round(NODES / seconds, 1), managerCpuSeconds: round(usage.cpuSeconds - cpu0), managerRssMiB: usage.rssMiB,
      clusterProcessCpuSeconds: round(selfCpuSeconds() - plane0),
    };
  } finally {
    await manager.stop();
    await plane.stop();
  }
}

async function main(): Promise<void> {
  const rows = [await run(undefined), await run(100)];
  console.table(rows);
  console.log(`written to ${await writeResults('jobs', { pullMs: PULL_MS, startMs: START_MS, runSeconds: RUN_S, rows })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
