/**
 * `npm run bench:plane-rollout`: the embedded plane's CPU per pod for an image rollout that this
 * process drives by hand, with no manager and no webhooks: each pod's image is changed by an HTTPS
 * PUT (as a controller writes), then the simulated kubelets restart its container and write its
 * status. The in-place rollout of `bench:cloneset` is bound by this cost (performance.md §17), but
 * its figures move by a third between runs with the manager's timing; this one is the plane's work
 * alone, and steady enough to compare two builds (performance.md §21).
 *
 * `--against <dist>` alternates this build with another one's `dist` directory (child processes,
 * `--runs` each; the plane, client and kinds are imported from that directory, so any earlier
 * build will do) and prints both and their ratio. Figures are process CPU (the plane and this
 * client together) per pod, averaged over the rounds after `--warmup`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Pod } from '../api/core/index.js';
import { writeResults } from './stats.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const pods = Number(arg('--pods', '400'));
const rounds = Number(arg('--rounds', '8'));
const warmup = Number(arg('--warmup', '4'));
const runs = Number(arg('--runs', '3'));
const against = process.argv.includes('--against') ? path.resolve(arg('--against', '')) : undefined;
const workers = 16;

interface RunResult { cpuMsPerPod: number[]; wallMs: number[] }

/** One plane of the build in `dist`, in this process: `pods` pods Ready, then `rounds` image rollouts over all of them. */
async function measure(dist: string): Promise<RunResult> {
  const { startBenchPlane } = await import(path.join(dist, 'bench', 'workloads-plane.js')) as typeof import('./workloads-plane.js');
  const { createHttpClient } = await import(path.join(dist, 'client', 'index.js')) as typeof import('../client/index.js');
  const { MutatingWebhookConfigurations, Pods, ValidatingWebhookConfigurations } = await import(path.join(dist, 'api', 'resource-type.js')) as typeof import('../api/resource-type.js');
  const plane = await startBenchPlane({ nodes: 50, pullDelayMs: 0, startDelayMs: 0 });
  try {
    for (const type of [MutatingWebhookConfigurations, ValidatingWebhookConfigurations]) {
      for (const hook of (await plane.client.list(type)).items) await plane.client.delete(type, undefined, hook.metadata.name!);
    }
    const http = createHttpClient({ kubeconfigPath: plane.kubeconfig, userAgent: 'plane-rollout' });
    const ready = (image: string) => plane.store.list('/core/pods/default/').items.filter(({ object }) => {
      const pod = object as Pod;
      const status = pod.status?.containerStatuses?.[0];
      return pod.spec.containers[0]!.image === image && status?.ready && status.image.endsWith(image);
    }).length;
    const until = async (image: string) => {
      while (ready(image) < pods) await new Promise((r) => setTimeout(r, 20));
    };
    for (let i = 0; i < pods; i++) {
      await http.create<Pod>(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `rollout-${i}`, namespace: 'default' },
        spec: { containers: [{ name: 'app', image: 'nginx:1', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } });
    }
    await until('nginx:1');
    const result: RunResult = { cpuMsPerPod: [], wallMs: [] };
    for (let r = 2; r < 2 + rounds; r++) {
      const image = `nginx:${r}`;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const items = (await http.list<Pod>(Pods, { namespace: 'default' })).items;
      await Promise.all(Array.from({ length: workers }, async (_, w) => {
        for (let i = w; i < items.length; i += workers) {
          const pod = items[i]!;
          pod.spec.containers[0]!.image = image;
          await http.update(Pods, pod);
        }
      }));
      await until(image);
      const used = process.cpuUsage(cpu);
      result.cpuMsPerPod.push(Math.round((used.user + used.system) / pods) / 1000);
      result.wallMs.push(Math.round(performance.now() - started));
    }
    return result;
  } finally {
    await plane.stop();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const steady = (r: RunResult) => mean(r.cpuMsPerPod.slice(warmup));

async function child(dist: string): Promise<RunResult> {
  const args = [fileURLToPath(import.meta.url), '--child', dist, '--pods', String(pods), '--rounds', String(rounds)];
  const { stdout } = await promisify(execFile)(process.execPath, args, { env: { ...process.env, KRUISE_LOG_LEVEL: 'warn' }, maxBuffer: 64 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as RunResult;
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) {
    console.log(JSON.stringify(await measure(arg('--child', ''))));
    process.exit(0);
  }
  const own = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const builds = against ? [own, against] : [own];
  const results = new Map<string, RunResult[]>(builds.map((b) => [b, []]));
  console.log(`plane-rollout: ${pods} pods, ${rounds} rollouts per run (first ${warmup} not counted), ${against ? `alternating ${runs} runs each` : `${runs} runs`}`);
  for (let run = 0; run < runs; run++) {
    for (const build of builds) {
      const r = await child(build);
      results.get(build)!.push(r);
      console.log(`  ${build}: CPU ms per pod ${r.cpuMsPerPod.join(' ')}; wall ms per rollout ${r.wallMs.join(' ')}`);
    }
  }
  const summary = builds.map((b) => ({ build: b, cpuMsPerPod: Math.round(mean(results.get(b)!.map(steady)) * 1000) / 1000 }));
  for (const s of summary) console.log(`${s.build}: ${s.cpuMsPerPod} CPU ms per pod (mean of steady rounds)`);
  if (against) console.log(`ratio (${against} / this build): ${(summary[1]!.cpuMsPerPod / summary[0]!.cpuMsPerPod).toFixed(2)}x`);
  console.log(`written to ${await writeResults('plane-rollout', { pods, rounds, warmup, summary, runs: Object.fromEntries(results) })}`);
}

await main();
