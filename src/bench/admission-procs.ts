/**
 * Processes of `bench:admission`: control planes (admission-plane.ts) and a `kruise manager` serving
 * the webhooks, all on 127.0.0.1, plus the webhook call counters scraped from their /metrics.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { managerProfileArgs } from './workloads-profile.js';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '../client/client.js';
import { mallocEnv, managerNodeOptions } from '../install/chart/values.js';
import { createHttpClient } from '../client/index.js';
import { apiClientFromKubeconfig, stopChild, type ApiClient } from '../testing/process.js';

const here = fileURLToPath(import.meta.url);
const bin = path.resolve(path.dirname(here), '../../bin/kruise.js');
/** Same gates in both topologies: the defaults plus what `kruise up` turns on (none touch creates). */
export const benchGates = 'ResourcesDeletionProtection=true,ResourceDistributionGate=true,ImagePullJobGate=true';

export interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns `args` and resolves with the first stdout match of `ready`; rejects on exit or timeout. */
function spawnUntil(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<{ proc: Proc; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  process.once('exit', () => child.kill('SIGKILL')); // never leave a plane behind when the benchmark dies
  let out = '';
  let started = false;
  const stop = async () => { await stopChild(child); };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`not ready after ${timeoutMs} ms:\n${out}`)); }, timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const match = ready.exec(out);
      if (match && !started) {
        started = true;
        clearTimeout(timer);
        resolve({ proc: { child, stop }, match });
      }
    });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${path.basename(args[args.length - 1])} exited ${code}:\n${out}`)); });
  });
}

export interface Plane extends Proc {
  mode: 'up' | 'split' | 'bare';
  kubeconfig: string;
  client: Client;
  raw: ApiClient;
}

export async function startPlane(mode: Plane['mode']): Promise<Plane> {
  const entry = path.join(path.dirname(here), `admission-plane${path.extname(here)}`);
  const { proc, match } = await spawnUntil([...process.execArgv, entry, '--mode', mode], /^(\{"ready":true.*\})$/m);
  const { kubeconfig } = JSON.parse(match[1]) as { kubeconfig: string };
  const client = createHttpClient({ kubeconfigPath: kubeconfig, userAgent: 'kruise-bench' });
  return { ...proc, mode, kubeconfig, client, raw: await apiClientFromKubeconfig(kubeconfig) };
}

export interface ManagerProc extends Proc {
  metricsUrl: string;
}

/**
 * `kruise manager` against `kubeconfig`, webhooks in URL form on 127.0.0.1, certificates in a temp
 * dir; `env` is laid over the benchmark's environment (e.g. NODE_OPTIONS of one variant).
 */
export async function startManager(kubeconfig: string, env: NodeJS.ProcessEnv = {}, chartMalloc = process.env.KRUISE_MANAGER_MALLOC !== 'off'): Promise<ManagerProc> {
  const certDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-bench-certs-'));
  const args = [...managerProfileArgs(), bin, 'manager', '--kubeconfig', kubeconfig, '--no-leader-elect', '--webhook-bind-address', '127.0.0.1',
    '--health-addr', '127.0.0.1:0', '--feature-gates', benchGates, '--log-level', process.env.KRUISE_BENCH_MANAGER_LOG_LEVEL ?? 'warn'];
  const { proc, match } = await spawnUntil(args, /health on (\{[^}]*\})/, {
    WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: '0', WEBHOOK_CERT_DIR: certDir,
    // The V8 flags and malloc settings the chart gives the manager container, unless the caller
    // sets its own (KRUISE_MANAGER_MALLOC=off: glibc's defaults); KRUISE_MANAGER_ENV (JSON) adds more.
    NODE_OPTIONS: process.env.KRUISE_MANAGER_NODE_OPTIONS ?? managerNodeOptions,
    ...(chartMalloc ? mallocEnv() : {}),
    ...JSON.parse(process.env.KRUISE_MANAGER_ENV ?? '{}') as NodeJS.ProcessEnv,
    ...env,
  });
  const health = JSON.parse(match[1]) as { host: string; port: number };
  // a diagnostic: the manager's log into a file (docs/design/cloneset.md §19)
  const logFile = process.env.KRUISE_BENCH_MANAGER_LOG;
  if (logFile) {
    const sink = createWriteStream(logFile, { flags: 'a' });
    proc.child.stdout!.pipe(sink);
    proc.child.stderr!.pipe(sink);
  }
  return {
    ...proc,
    metricsUrl: `http://${health.host}:${health.port}/metrics`,
    async stop() {
      await proc.stop();
      await rm(certDir, { recursive: true, force: true });
    },
  };
}

export interface Calls { count: number; seconds: number }
/** Webhook calls by name (API server's view) or path (webhook server's view). */
export type CallTable = Record<string, Calls>;

const series = [
  { metric: 'apiserver_admission_webhook_admission_duration_seconds', label: 'name' },
  { metric: 'controller_runtime_webhook_latency_seconds', label: 'webhook' },
];

/** Sums `_count` and `_sum` of the two webhook histograms in a Prometheus text page, by webhook. */
export function parseCalls(text: string): CallTable {
  const table: CallTable = {};
  for (const line of text.split('\n')) {
    for (const { metric, label } of series) {
      const m = new RegExp(`^${metric}_(sum|count)\\{[^}]*\\b${label}="([^"]+)"[^}]*\\} (\\S+)$`).exec(line);
      if (!m) continue;
      const calls = (table[m[2]] ??= { count: 0, seconds: 0 });
      if (m[1] === 'count') calls.count += Number(m[3]);
      else calls.seconds += Number(m[3]);
    }
  }
  return table;
}

export function diffCalls(after: CallTable, before: CallTable): CallTable {
  const out: CallTable = {};
  for (const [k, v] of Object.entries(after)) {
    const count = v.count - (before[k]?.count ?? 0);
    if (count > 0) out[k] = { count, seconds: v.seconds - (before[k]?.seconds ?? 0) };
  }
  return out;
}

/** The API server's webhook histograms, plus the manager's handler histogram when it runs apart. */
export async function scrapeCalls(plane: Plane, manager?: ManagerProc): Promise<CallTable> {
  const r = await plane.raw.request('GET', '/metrics');
  if (r.status !== 200) throw new Error(`GET /metrics: ${r.status}`);
  const table = parseCalls(r.text);
  if (manager) Object.assign(table, parseCalls(await httpGet(manager.metricsUrl)));
  return table;
}

function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}
