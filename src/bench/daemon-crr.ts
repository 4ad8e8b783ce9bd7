/**
 * `npm run bench:daemon-crr`: ContainerRecreateRequests at scale (docs/design/container-recreate.md §7).
 * 100 simulated nodes, each with its kruise-daemon over the node's CRI socket; 200 running pods
 * (two containers each); 200 requests created at once, one per pod, restarting `app` with a 1 s
 * grace. Measured: time until every request is Completed with `app` Succeeded, and per request the
 * latency from its create call returning to the watch showing it Completed, against the goal
 * p99 < 2 s + grace. Also checks that every pod kept its UID and restarted `app` exactly once.
 */
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ContainerRecreateRequests } from '../api/kruise/resource-types.js';
import { Pods } from '../api/resource-type.js';
import { setupContainerRecreateRequestController } from '../controllers/containerrecreaterequest/index.js';
import { eventually, startWorkloadEnv } from '../testing/workload-env.js';
import { percentile, writeResults } from './stats.js';
import type { Pod } from '../api/core/index.js';
import type { KObject } from '../api/meta.js';

const nodes = 100;
const pods = 200;
const graceSeconds = 1;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
type Request = KObject & { status?: { phase?: string; containerRecreateStates?: { name: string; phase: string }[] } };

async function main(): Promise<void> {
  const w = await startWorkloadEnv({ nodes, daemons: true, controllers: (m) => { setupContainerRecreateRequestController(m, { workers: 16 }); } });
  try {
    const names = Array.from({ length: pods }, (_, i) => `p-${i}`);
    await Promise.all(names.map((name) => w.client.create(Pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
      spec: { terminationGracePeriodSeconds: graceSeconds, containers: [{ name: 'app', image: 'nginx:1.25' }, { name: 'side', image: 'redis:7' }] },
    })));
    const running = (p: Pod) => p.status?.phase === 'Running' && (p.status.containerStatuses ?? []).every((s) => s.ready && s.containerID);
    const before = await eventually('pods running', async () => {
      const list = (await w.client.list<Pod>(Pods, { namespace: 'default' })).items;
      return list.length === pods && list.every(running) ? new Map(list.map((p) => [p.metadata.name!, p])) : undefined;
    }, 300_000);

    const createdAt = new Map<string, number>();
    const completedAt = new Map<string, number>();
    const stageAt = new Map<string, Map<string, number>>(); // first time each stage was seen, per request
    let allDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => { allDone = resolve; });
    const watch = w.client.watch<Request>(ContainerRecreateRequests, { namespace: 'default' }, {
      onEvent: (e) => {
        const name = e.object.metadata?.name;
        if (!name) return;
        const stages = stageAt.get(name) ?? new Map<string, number>();
        stageAt.set(name, stages);
        const app = e.object.status?.containerRecreateStates?.[0];
        for (const stage of [`phase ${e.object.status?.phase ?? ''}`, app ? `app ${app.phase}${(app as { isKilled?: boolean }).isKilled ? ' killed' : ''}` : '']) {
          if (stage && !stages.has(stage)) stages.set(stage, performance.now());
        }
        if (e.object.status?.phase !== 'Completed' || completedAt.has(name)) return;
        completedAt.set(name, performance.now());
        if (completedAt.size === pods) allDone();
      },
      onClose: () => undefined,
    });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(names.map(async (pod, i) => {
      await w.client.create(ContainerRecreateRequests, {
        apiVersion: 'apps.kruise.io/v1beta1', kind: 'ContainerRecreateRequest', metadata: { name: `crr-${i}`, namespace: 'default' },
        spec: { podName: pod, containers: [{ name: 'app' }], strategy: { terminationGracePeriodSeconds: graceSeconds } },
      });
      createdAt.set(`crr-${i}`, performance.now());
    }));
    const timeout = setTimeout(() => allDone(), 300_000);
    await done;
    clearTimeout(timeout);
    const secondsToAllCompleted = round((performance.now() - started) / 1000);
    const cpuUsed = process.cpuUsage(cpu);
    loop.disable();
    watch.stop();

    const requests = (await w.client.list<Request>(ContainerRecreateRequests, { namespace: 'default' })).items;
    const succeeded = requests.filter((r) => r.status?.containerRecreateStates?.[0]?.phase === 'Succeeded').length;
    const after = (await w.client.list<Pod>(Pods, { namespace: 'default' })).items;
    const restartedOnce = after.filter((p) => p.metadata.uid === before.get(p.metadata.name!)?.metadata.uid
      && p.status?.containerStatuses?.find((s) => s.name === 'app')?.restartCount === 1
      && p.status.containerStatuses.find((s) => s.name === 'side')?.restartCount === 0).length;
    const latencies = [...completedAt].map(([name, at]) => (at - createdAt.get(name)!) / 1000).sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    const goal = 2 + graceSeconds;
    const result = {
      nodes, pods, requests: pods, graceSeconds, completed: completedAt.size, succeeded, podsRestartedOnceSameUid: restartedOnce,
      secondsToAllCompleted, p50Seconds: round(percentile(latencies, 50)), p99Seconds: round(p99), maxSeconds: round(latencies.at(-1) ?? NaN),
      goalP99Seconds: goal,
      // the whole cluster (API server, kubelets, daemons, manager) is this one process: its CPU and event-loop lag explain the latencies
      processCpuSeconds: round((cpuUsed.user + cpuUsed.system) / 1e6), eventLoopDelayP99Ms: round(loop.percentile(99) / 1e6), loadAverage1m: round(os.loadavg()[0]!), goal: p99 < goal && succeeded === pods && restartedOnce === pods ? 'met' : 'MISSED',
    };
    const stageNames = new Set([...stageAt.values()].flatMap((m) => [...m.keys()]));
    const stages = [...stageNames].map((stage) => {
      const since = [...stageAt].filter(([, m]) => m.has(stage)).map(([name, m]) => (m.get(stage)! - createdAt.get(name)!) / 1000).sort((a, b) => a - b);
      return { stage, requests: since.length, p50Seconds: round(percentile(since, 50)), p99Seconds: round(percentile(since, 99)) };
    }).sort((a, b) => a.p50Seconds - b.p50Seconds);
    console.table(stages);
    console.table(Object.entries(result).map(([measure, value]) => ({ measure, value })));
    console.log(`written to ${await writeResults('daemon-crr', { ...result, stages })}`);
  } finally {
    await w.stop();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
