/**
 * `npm run bench:vs-kube-apiserver`: the same request mix against `kruise up` (child process, no nodes,
 * no Kruise manager, its webhook configurations removed) and the cached real kube-apiserver v1.32 + etcd + kube-controller-manager
 * (scripts/real-control-plane.sh), alternating between them figure by figure so machine load falls
 * on both alike; prints each figure and the ratio. Both run on loopback HTTPS with bearer tokens.
 * Without the cached binaries it says how to build them and exits 1 (docs/design/performance.md §1).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { apiClientFromKubeconfig, startUp, stopChild } from '../testing/process.js';
import { realControlPlaneAvailable, startRealControlPlane } from '../testing/real-control-plane.js';
import { writeResults } from './stats.js';
import { configMapCreates, listLatency, namespace, podCreates, podPatches, watchDelivery, type Target } from './vs-kube-measures.js';
import { LoadGenerator, type LoadResult } from './vs-kube-load.js';
import { printRow, type Figure, type Measured, type Row } from './vs-kube-report.js';

const PODS = 3000;
const SEQUENTIAL = 500;
const LIST_PODS = 5000;
const WARMUP = 1000;

const sent = async (r: Promise<LoadResult>): Promise<Measured> => {
  const { rate, clientCpuMs } = await r;
  return { value: rate, clientCpuMs };
};

const figures: Figure[] = [
  { name: 'pod create, 32 clients', unit: '/s', higherIsBetter: true, ops: PODS, measure: async (t, load) => sent(load.run(t, podCreates(await namespace(t, 'par'), 'p', PODS), 32)) },
  { name: 'pod create, sequential', unit: '/s', higherIsBetter: true, ops: SEQUENTIAL, measure: async (t, load) => sent(load.run(t, podCreates(await namespace(t, 'seq'), 's', SEQUENTIAL), 1)) },
  { name: 'ConfigMap create, 32 clients', unit: '/s', higherIsBetter: true, ops: PODS, measure: async (t, load) => sent(load.run(t, configMapCreates(await namespace(t, 'cms'), PODS), 32)) },
  { name: 'pod merge patch, 32 clients', unit: '/s', higherIsBetter: true, ops: PODS, measure: (t, load) => sent(load.run(t, podPatches(t, 'par', 'p', PODS, PODS, 'merge'), 32)) },
  { name: 'pod merge patch, sequential', unit: '/s', higherIsBetter: true, ops: SEQUENTIAL, measure: (t, load) => sent(load.run(t, podPatches(t, 'par', 'p', PODS, SEQUENTIAL, 'merge'), 1)) },
  { name: 'pod strategic patch, 32 clients', unit: '/s', higherIsBetter: true, ops: PODS, measure: (t, load) => sent(load.run(t, podPatches(t, 'par', 'p', PODS, PODS, 'strategic'), 32)) },
  { name: 'pod strategic patch, sequential', unit: '/s', higherIsBetter: true, ops: SEQUENTIAL, measure: (t, load) => sent(load.run(t, podPatches(t, 'par', 'p', PODS, SEQUENTIAL, 'strategic'), 1)) },
  { name: `list ${LIST_PODS} pods, p50`, unit: ' ms', higherIsBetter: false, measure: async (t, load) => {
    await load.run(t, podCreates(await namespace(t, 'big'), 'b', LIST_PODS), 32);
    return { value: (await listLatency(t, 'big', LIST_PODS)).p50 };
  } },
  { name: 'watch delivery to 100 watchers, p50', unit: ' ms', higherIsBetter: false, measure: async (t) => ({ value: (await watchDelivery(t, await namespace(t, 'watch'))).p50 }) },
  { name: 'watch delivery to 100 watchers, p99', unit: ' ms', higherIsBetter: false, measure: async (t) => ({ value: (await watchDelivery(t, await namespace(t, 'watch2'))).p99 }) },
];

/**
 * `kruise up --no-kruise-manager` still registers the Kruise webhooks (failurePolicy Fail for pods);
 * the real server has none, so they go: both servers admit pods on their own.
 */
async function dropWebhookConfigurations(t: Target): Promise<void> {
  for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
    const base = `/apis/admissionregistration.k8s.io/v1/${kind}`;
    for (const item of (await t.api.request('GET', base)).body.items as { metadata: { name: string } }[]) {
      await t.api.request('DELETE', `${base}/${item.metadata.name}`);
    }
  }
}

/** utime + stime of processes, in seconds (Linux, 100 ticks a second). */
async function cpuSeconds(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return total;
}

/** kube-apiserver's and etcd's pids, as scripts/real-control-plane.sh records them (`<name> <pid>` lines). */
async function serverPids(dir: string): Promise<number[]> {
  const lines = (await readFile(path.join(dir, 'pids'), 'utf8')).split('\n').map((l) => l.split(' '));
  return lines.filter(([name]) => name === 'etcd' || name === 'kube-apiserver').map(([, pid]) => Number(pid));
}

async function main(): Promise<void> {
  const availability = realControlPlaneAvailable();
  if (!availability.available) {
    console.error(`real control plane unavailable: ${availability.reason}`);
    process.exit(1);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-vs-kube-'));
  const up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '0', '--no-kruise-manager', '--no-kruise-daemon']);
  // Both stores sync to the same disk: etcd as deployed, not the tests' tmpfs without fsync (performance.md §13).
  const real = await startRealControlPlane({ durable: true });
  try {
    const kc = parse(await readFile(path.join(dir, 'kubeconfig'), 'utf8')) as { clusters: { cluster: Record<string, string> }[]; users: { user: { token: string } }[] };
    const ours: Target = {
      name: 'kruise up', pids: [up.child.pid!], api: await apiClientFromKubeconfig(path.join(dir, 'kubeconfig')), url: up.url,
      caPem: Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), token: kc.users[0].user.token,
    };
    await dropWebhookConfigurations(ours);
    const theirs: Target = { name: 'kube-apiserver', pids: await serverPids(path.dirname(real.kubeconfig)), api: await apiClientFromKubeconfig(real.kubeconfig), url: real.url, caPem: real.caPem, token: real.token };
    const load = new LoadGenerator();
    // Both servers first take the same warm-up writes, so the first figure does not carry our
    // server's JIT compilation (or kube's first etcd pages) alone (performance.md §13).
    for (const t of [ours, theirs]) {
      await load.run(t, podCreates(await namespace(t, 'warm'), 'w', WARMUP), 32);
      await load.run(t, podPatches(t, 'warm', 'w', WARMUP, WARMUP, 'merge'), 32);
      await load.run(t, podPatches(t, 'warm', 'w', WARMUP, WARMUP, 'strategic'), 32);
    }
    const rows: Record<string, Row> = {};
    console.log('kruise up vs kube-apiserver v1.32 + etcd (one run, alternating, loopback HTTPS, load from 4 threads x 8 clients)');
    console.log(`  ${'figure'.padEnd(36)} ${'kruise up'.padStart(10)} ${'kube'.padStart(10)}  ratio   CPU ms/req kruise, kube; client (kruise, kube)`);
    for (const [i, f] of figures.entries()) {
      // alternate who goes first, so a warming machine favours neither
      const order = i % 2 === 0 ? [ours, theirs] : [theirs, ours];
      const measured = new Map<Target, Measured & { serverCpuMs?: number }>();
      for (const t of order) {
        const before = await cpuSeconds(t.pids);
        const m = await f.measure(t, load);
        measured.set(t, f.ops ? { ...m, serverCpuMs: Math.round(((await cpuSeconds(t.pids)) - before) / f.ops * 1e5) / 100 } : m);
      }
      rows[f.name] = printRow(f, measured.get(ours)!, measured.get(theirs)!);
    }
    await load.close();
    console.log(`written to ${await writeResults('vs-kube-apiserver', rows)}`);
  } finally {
    const killer = setTimeout(() => up.child.kill('SIGKILL'), 15_000);
    await stopChild(up.child);
    clearTimeout(killer);
    await real.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
