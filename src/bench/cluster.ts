/**
 * `npm run bench:cluster`: scheduling throughput (1,000 nodes, 10,000 pending pods) and a 1,000-replica
 * Deployment to 1,000 Ready pods on 100 simulated nodes, in one process, with RSS.
 */
import { startTestControlPlane } from '../testing/control-plane.js';
import { createInProcessClient } from '../client/index.js';
import { Deployments, Pods } from '../api/resource-type.js';
import { createSimulatedNodes } from '../cluster/kubelet/index.js';
import { createScheduler } from '../cluster/scheduler/index.js';
import { startCluster } from '../cluster/cluster.js';
import { writeResults } from './stats.js';

const rssMiB = () => Math.round(process.memoryUsage().rss / 1048576);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function schedulingThroughput(nodes: number, pods: number): Promise<Record<string, number>> {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const sim = createSimulatedNodes({ client, count: nodes, nodeStatusReportIntervalMs: 3_600_000 } as Parameters<typeof createSimulatedNodes>[0]);
  await sim.start();
  for (let i = 0; i < pods; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, pods - i) }, (_, j) => client.create(Pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i + j}`, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
    })));
  }
  const bound = () => env.plane.store.list('/core/pods/default/', { filter: (p) => !!(p.spec as { nodeName?: string }).nodeName }).items.length;
  const scheduler = createScheduler({ client });
  const started = performance.now();
  await scheduler.start();
  while (bound() < pods) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const result = { nodes, pods, seconds: Math.round(seconds * 100) / 100, podsScheduledPerSec: Math.round(pods / seconds), rssMiB: rssMiB() };
  await scheduler.stop();
  await sim.stop();
  await env.stop();
  return result;
}

async function deploymentToReady(nodes: number, replicas: number): Promise<Record<string, number>> {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const cluster = await startCluster({ client, nodes });
  await sleep(500);
  const started = performance.now();
  await client.create(Deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
  });
  let ready = 0;
  while (ready < replicas) {
    await sleep(100);
    ready = env.plane.store.list('/core/pods/default/', {
      filter: (p) => ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    }).items.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const result = { nodes, replicas, secondsToAllReady: Math.round(seconds * 100) / 100, rssMiB: rssMiB() };
  await cluster.stop();
  await env.stop();
  return result;
}

async function main(): Promise<void> {
  const scheduling = await schedulingThroughput(1000, 10_000);
  console.log('scheduling', scheduling);
  const deployment = await deploymentToReady(100, 1000);
  console.log('deployment', deployment);
  console.log(`goals: 1,000 pods/s scheduled -> ${scheduling.podsScheduledPerSec >= 1000 ? 'met' : 'MISSED'}; 1,000 Ready pods < 10 s -> ${deployment.secondsToAllReady < 10 ? 'met' : 'MISSED'} (zero simulated delays)`);
  console.log(`written to ${await writeResults('cluster', { scheduling, deployment })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
