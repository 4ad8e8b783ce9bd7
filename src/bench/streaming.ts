/**
 * `npm run bench:streaming` (docs/design/streaming.md §6): `kruise up` as a child process with 100
 * pods that each write a line a second; from Node (the protocols directly, not 100 kubectl
 * processes): 100 `logs -f` at once, and 100 concurrent execs (`echo hi` over WebSocket v5) for ten
 * rounds; the plane's CPU (from /proc) beside each, exec round trip p50/p99 against the 50 ms goal,
 * and a few real `kubectl.1.32 exec` calls for scale.
 */
import https from 'node:https';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startUp, stopChild } from '../testing/process.js';
import { apiClientFromKubeconfig } from '../testing/process.js';
import { kubectlBinary } from '../testing/kubectl.js';
import { percentile, writeResults } from './stats.js';
import { endpointOf, execOnce, followLog } from './streaming-clients.js';

const PODS = 100;
const CONCURRENT_EXECS = 100;
const ROUNDS = 10;
const LOG_WINDOW_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

async function cpuSecondsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
};

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-bench-streaming-'));
  const up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '4', '--in-memory', '--log-level', 'warn', '--no-kruise-daemon'], 60_000);
  const pid = up.child.pid!;
  try {
    const kubeconfig = path.join(dir, 'kubeconfig');
    const api = await apiClientFromKubeconfig(kubeconfig);
    const e = await endpointOf(kubeconfig);
    await api.request('POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    const names = Array.from({ length: PODS }, (_, i) => `logger-${i}`);
    const created = await Promise.all(names.map((name) => api.request('POST', '/api/v1/namespaces/bench/pods', {
      metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }] },
    })));
    const refused = created.find((r) => r.status !== 201);
    if (refused) throw new Error(`pod create answered ${refused.status}: ${refused.text}`);
    for (let tries = 0; ; tries++) {
      if (tries > 300) throw new Error('the bench pods did not all run within a minute');
      const list = await api.request('GET', '/api/v1/namespaces/bench/pods');
      if ((list.body.items as { status?: { phase?: string } }[]).filter((p) => p.status?.phase === 'Running').length === PODS) break;
      await sleep(200);
    }
    await sleep(1000);
    const rows: Record<string, unknown>[] = [];

    let cpu = await cpuSecondsOf(pid);
    await sleep(LOG_WINDOW_MS);
    const idleCpu = await cpuSecondsOf(pid) - cpu;
    rows.push({ scenario: 'idle, 100 pods', 'plane CPU %': round((idleCpu / (LOG_WINDOW_MS / 1000)) * 100) });

    const agent = new https.Agent({ keepAlive: true, maxSockets: PODS + 10 });
    const delays: number[] = [];
    const stops = names.map((name) => followLog(e, 'bench', name, agent, (delay) => delays.push(delay)));
    await sleep(1500); // every stream open
    delays.length = 0;
    cpu = await cpuSecondsOf(pid);
    await sleep(LOG_WINDOW_MS);
    const followCpu = await cpuSecondsOf(pid) - cpu;
    const d = stats(delays);
    rows.push({ scenario: `logs -f × ${PODS} (1 line/s each)`, 'plane CPU %': round((followCpu / (LOG_WINDOW_MS / 1000)) * 100), n: d.n, 'p50 ms': d.p50, 'p99 ms': d.p99, 'max ms': d.max, note: 'line delay: arrival − its timestamp' });
    for (const stop of stops) stop();
    agent.destroy();
    await sleep(500);

    const sequential: number[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await execOnce(e, 'bench', names[i % PODS], ['echo', 'hi']);
      if (r.stdout !== 'hi\n') throw new Error(`exec answered ${JSON.stringify(r)}`);
      sequential.push(r.ms);
    }
    const s = stats(sequential);
    rows.push({ scenario: 'exec echo hi, one at a time', n: s.n, 'p50 ms': s.p50, 'p99 ms': s.p99, 'max ms': s.max, 'goal p99 ms': 50, met: s.p99 < 50 });

    for (const concurrency of [10, CONCURRENT_EXECS]) {
      const concurrent: number[] = [];
      cpu = await cpuSecondsOf(pid);
      const load = process.cpuUsage();
      const started = performance.now();
      for (let r = 0; r < ROUNDS * (CONCURRENT_EXECS / concurrency); r++) {
        const results = await Promise.all(names.slice(0, concurrency).map((name) => execOnce(e, 'bench', name, ['echo', 'hi'])));
        for (const x of results) concurrent.push(x.ms);
      }
      const wall = (performance.now() - started) / 1000;
      const execCpu = await cpuSecondsOf(pid) - cpu;
      const used = process.cpuUsage(load);
      const c = stats(concurrent);
      rows.push({
        scenario: `exec × ${concurrency} at once`, 'plane CPU %': round((execCpu / wall) * 100), 'load CPU %': round(((used.user + used.system) / 1e6 / wall) * 100),
        n: c.n, 'p50 ms': c.p50, 'p99 ms': c.p99, 'max ms': c.max, 'goal p99 ms': 50, met: c.p99 < 50,
        note: `${round(c.n / wall, 0)} execs/s, ${round((execCpu * 1000) / c.n, 2)} ms plane CPU each`,
      });
    }

    const kubectlTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => execFile(kubectlBinary(32), ['--kubeconfig', kubeconfig, '-n', 'bench', 'exec', names[i], '--', 'echo', 'hi'],
        (err, stdout) => (err || stdout !== 'hi\n' ? reject(err ?? new Error(stdout)) : resolve())));
      kubectlTimes.push(performance.now() - t0);
    }
    const k = stats(kubectlTimes);
    rows.push({ scenario: 'kubectl.1.32 exec echo hi (whole process)', n: k.n, 'p50 ms': k.p50, 'p99 ms': k.p99, 'max ms': k.max, note: 'kubectl start-up included' });

    console.table(rows);
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => round(l, 2)).join(' ')}`);
    console.log(`results: ${await writeResults('streaming', { rows })}`);
  } finally {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
