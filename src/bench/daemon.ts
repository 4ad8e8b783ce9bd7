/**
 * `npm run bench:daemon`: image pre-pulling on 100 simulated nodes, one kruise-daemon each
 * (docs/design/image-pulling.md §9).
 * An ImageListPullJob of 3 images to every node (each child job's parallelism = all nodes), every
 * pull taking PULL_MS on the node's simulated registry, measured from create to the list job's
 * completionTime against the goal 1.2 × pull time × images / per-node parallelism, where per-node
 * parallelism is the number of pulls a node runs at once (`--max-workers-for-pull-image`, capped
 * by the 3 images). Run once with 1 worker per node and once unlimited. The last node's daemon is
 * a separate `kruise daemon` process: its idle RSS (goal < 60 MB), peak RSS and CPU during the job.
 */
import { readFile } from 'node:fs/promises';
import { ImageListPullJobs } from '../api/kruise/resource-types.js';
import { Namespaces } from '../api/resource-type.js';
import type { ImageListPullJobObject } from '../control/imagejob/index.js';
import { startDaemonPlane } from './daemon-plane.js';
import { rssMiB, writeResults } from './stats.js';

const NODES = 100;
const PULL_MS = 2000;
const IMAGES = ['nginx:1.25', 'busybox:1.36', 'redis:7.2'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** utime + stime of a process in seconds (Linux, 100 ticks a second). */
async function cpuSecondsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function run(maxWorkers: number): Promise<Record<string, number | string>> {
  const plane = await startDaemonPlane({ nodes: NODES, pullDelayMs: PULL_MS, maxWorkersForPullImage: maxWorkers });
  try {
    const pid = plane.daemonProcess.pid!;
    await sleep(3000); // the separate daemon settles: informer synced, first status written
    const idleRss = await rssMiB(pid);
    const client = plane.env.client;
    await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    const daemonCpu = await cpuSecondsOf(pid);
    const planeCpu = process.cpuUsage();
    const started = performance.now();
    await client.create(ImageListPullJobs, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name: 'prepull', namespace: 'bench' },
      spec: { images: IMAGES, parallelism: NODES, completionPolicy: { type: 'Always' } },
    });
    let peakRss = idleRss;
    let job: ImageListPullJobObject | undefined;
    while (!job?.status?.completionTime) {
      await sleep(100);
      peakRss = Math.max(peakRss, await rssMiB(pid));
      job = await client.get<ImageListPullJobObject>(ImageListPullJobs, 'bench', 'prepull');
      if (performance.now() - started > 600_000) throw new Error(`not complete after 10 min: ${JSON.stringify(job.status)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const perNode = maxWorkers < 0 ? IMAGES.length : Math.min(maxWorkers, IMAGES.length);
    const goal = 1.2 * (PULL_MS / 1000) * IMAGES.length / perNode;
    const cpu = process.cpuUsage(planeCpu);
    return {
      nodes: NODES, images: IMAGES.length, pullMs: PULL_MS, maxWorkersForPullImage: maxWorkers, succeeded: job.status.succeeded ?? 0,
      secondsToComplete: round(seconds), goalSeconds: round(goal), goal: seconds <= goal ? 'met' : 'MISSED',
      benchProcessCpuSeconds: round((cpu.user + cpu.system) / 1e6),
      separateDaemon: plane.processNode, daemonIdleRssMiB: idleRss, daemonIdleRssGoal: idleRss < 60 ? 'met' : 'MISSED',
      daemonPeakRssMiB: peakRss, daemonCpuSecondsDuringJob: round((await cpuSecondsOf(pid)) - daemonCpu),
    };
  } finally {
    await plane.stop();
  }
}

async function main(): Promise<void> {
  const oneWorker = await run(1);
  console.log('one pull at a time per node', oneWorker);
  const unlimited = await run(-1);
  console.log('unlimited pulls per node', unlimited);
  console.log(`written to ${await writeResults('daemon', { oneWorker, unlimited })}`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
