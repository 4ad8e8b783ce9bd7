/**
 * `npm run bench:nodes`: simulated nodes that behave like real ones, measured.
 * 1. Jobs: 1,000 Job pods running `sleep 1` on 100 nodes (one Job, parallelism = completions =
 *    1,000): time from create to the Job's Complete condition and to all pods Succeeded, and the
 *    plane's CPU time, against the goal 1.5 x (start delay + 1 s) x waves (one wave: 100 nodes hold
 *    11,000 pods).
 * 2. Restart: `kruise up` with 5,000 running pods (a Deployment on 100 nodes) stopped and started:
 *    time to ready, time until all 5,000 pods are Ready again, and pods whose container changed
 *    (goal 0).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Jobs } from '../api/resource-type.js';
import { createInProcessClient } from '../client/index.js';
import { startCluster } from '../cluster/cluster.js';
import { startTestControlPlane } from '../testing/control-plane.js';
import { apiClientFromKubeconfig, startUp, stopChild, type UpProcess } from '../testing/process.js';
import { writeResults } from './stats.js';
import type { Job, Pod } from '../api/core/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const cpuSeconds = (from: NodeJS.CpuUsage) => { const u = process.cpuUsage(from); return round((u.user + u.system) / 1e6); };

async function jobBatch(nodes: number, pods: number, startDelayMs: number): Promise<Record<string, number | string>> {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const cluster = await startCluster({ client, nodes, startDelayMs });
  await sleep(500);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await client.create(Jobs, {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'sleepers', namespace: 'default' },
    spec: {
      parallelism: pods, completions: pods, backoffLimit: 0,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'sleep', image: 'busybox:1.36', command: ['sleep', '1'] }] } },
    },
  });
  let completeAt = 0;
  let succeededAt = 0;
  while (!completeAt || !succeededAt) {
    await sleep(50);
    const job = await client.get<Job>(Jobs, 'default', 'sleepers');
    if (!completeAt && job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')) completeAt = performance.now();
    if (!succeededAt && (job.status?.succeeded ?? 0) >= pods) succeededAt = performance.now();
    if (performance.now() - started > 600_000) throw new Error(`job not complete after 10 min: ${JSON.stringify(job.status)}`);
  }
  const waves = Math.ceil(pods / (nodes * 110));
  const goal = 1.5 * (startDelayMs / 1000 + 1) * waves;
  const seconds = (completeAt - started) / 1000;
  const result = {
    nodes, pods, startDelayMs, waves, secondsToAllSucceeded: round((succeededAt - started) / 1000), secondsToComplete: round(seconds),
    planeCpuSeconds: cpuSeconds(cpu), goalSeconds: round(goal), goal: seconds <= goal ? 'met' : 'MISSED',
  };
  await cluster.stop();
  await env.stop();
  return result;
}

async function restartWithRunningPods(nodes: number, replicas: number): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kruise-bench-restart-'));
  const args = ['--port', '0', '--data-dir', dir, '--nodes', String(nodes)];
  let up: UpProcess = await startUp(args, 120_000);
  let api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  const listPods = async () => (await api.request('GET', '/api/v1/namespaces/default/pods')).body.items as Pod[];
  const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  await api.request('POST', `/apis/apps/v1/namespaces/default/deployments`, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } } },
  });
  const createdAt = performance.now();
  for (;;) {
    const ps = await listPods();
    if (ps.length === replicas && ps.every(ready)) break;
    if (performance.now() - createdAt > 900_000) throw new Error('deployment not ready after 15 min');
    await sleep(1000);
  }
  const secondsToReadyFirst = round((performance.now() - createdAt) / 1000);
  const before = new Map((await listPods()).map((p) => [p.metadata.uid!, p.status!.containerStatuses![0]!.containerID]));
  await stopChild(up.child);
  const restartedAt = performance.now();
  up = await startUp(args, 120_000);
  const secondsToUp = round((performance.now() - restartedAt) / 1000);
  api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
  let after: Pod[] = [];
  for (;;) {
    after = await listPods();
    if (after.length === replicas && after.every(ready)) break;
    await sleep(200);
  }
  const secondsToAllReady = round((performance.now() - restartedAt) / 1000);
  const changed = after.filter((p) => before.get(p.metadata.uid!) !== p.status!.containerStatuses![0]!.containerID).length;
  await stopChild(up.child, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
  return { nodes, pods: replicas, secondsToReadyFirst, secondsToUp, secondsToAllReady, podsWithChangedContainer: changed, goal: changed === 0 ? 'met' : 'MISSED' };
}

async function main(): Promise<void> {
  const jobs = await jobBatch(100, 1000, 100);
  console.log('jobs', jobs);
  const restart = await restartWithRunningPods(100, 5000);
  console.log('restart', restart);
  console.log(`written to ${await writeResults('nodes', { jobs, restart })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
