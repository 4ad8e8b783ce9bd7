/**
 * `npm run bench:apiserver`: throughput, latency and memory of the embedded API server, measured
 * against a `kruise up` child process over HTTPS on loopback, printed and written to JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import type { ClientRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { apiClientFromKubeconfig, startUp, stopChild, type ApiClient } from '../testing/process.js';
import { percentile, rate, rssMiB, writeResults } from './stats.js';

const pod = (name: string) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, labels: { app: 'bench', tier: 'web', 'pod-template-hash': '5d8f7c9b4' }, annotations: { note: 'x'.repeat(400) } },
  spec: {
    containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }],
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }],
  },
});

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-bench-'));
  const results: Record<string, unknown> = {};
  const coldStart = Date.now();
  const up = await startUp(['--port', '0', '--data-dir', dir]);
  results.coldStartToReadyMs = Date.now() - coldStart;
  const pid = up.child.pid!;
  try {
    const api = await apiClientFromKubeconfig(path.join(dir, 'kubeconfig'));
    const ns = '/api/v1/namespaces/default/pods';
    const create = (prefix: string) => async (i: number) => {
      const r = await api.request('POST', ns, pod(`${prefix}-${i}`));
      if (r.status !== 201) throw new Error(`create failed ${r.status} ${r.text}`);
    };
    const cm = async (i: number) => {
      const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` }, data: { key: 'value' } });
      if (r.status !== 201) throw new Error(`create failed ${r.status} ${r.text}`);
    };
    results.configMapCreatesPerSec32 = await rate(4000, 32, cm);
    results.configMapUpdatesPerSec32 = await rate(4000, 32, async (i) => {
      const r = await api.request('PATCH', `/api/v1/namespaces/default/configmaps/cm-${i}`, { data: { key: `v${i}` } }, { 'content-type': 'application/merge-patch+json' });
      if (r.status !== 200) throw new Error(`update failed ${r.status} ${r.text}`);
    });
    results.createsPerSecSequential = await rate(1000, 1, create('seq'));
    results.createsPerSec32 = await rate(4000, 32, create('par'));
    const update = async (i: number) => {
      const r = await api.request('PATCH', `${ns}/par-${i % 4000}`, { metadata: { labels: { round: String(i) } } }, { 'content-type': 'application/merge-patch+json' });
      if (r.status !== 200) throw new Error(`update failed ${r.status} ${r.text}`);
    };
    results.updatesPerSecSequential = await rate(1000, 1, update);
    results.updatesPerSec32 = await rate(4000, 32, update);
    await rate(5000, 32, create('fill'));
    results.podsStored = 10_000;
    results.listLatencyMs10k = await listLatency(api, ns);
    results.rssMiB10k = await rssMiB(pid);
    results.watch = await watchLatency(api, up.url, dir);
    await rate(40_000, 32, create('big'));
    results.rssMiB50k = await rssMiB(pid);
  } finally {
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  }
  print(results);
  console.log(`written to ${await writeResults('apiserver', results)}`);
}

async function listLatency(api: ApiClient, ns: string): Promise<{ p50: number; max: number }> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const r = await api.request('GET', ns);
    if (r.body.items.length < 10_000) throw new Error('list too short');
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: Math.round(percentile(samples, 50)), max: Math.round(samples[samples.length - 1]) };
}

/** 100 watchers on the pods collection; each update's delivery delay is measured at every watcher. */
async function watchLatency(api: ApiClient, url: string, dir: string): Promise<{ p50Ms: number; p99Ms: number; watchers: number; events: number }> {
  const { readFile } = await import('node:fs/promises');
  const { parse } = await import('yaml');
  const kc = parse(await readFile(path.join(dir, 'kubeconfig'), 'utf8'));
  const ca = Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64');
  const token = kc.users[0].user.token as string;
  const list = await api.request('GET', '/api/v1/namespaces/default/pods?limit=1');
  const rv = list.body.metadata.resourceVersion;
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  const agent = new https.Agent({ ca, keepAlive: true, maxSockets: 200 });
  const requests = Array.from({ length: 100 }, () => new Promise<ClientRequest>((resolve) => {
    const req = https.request(`${url}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rv}&labelSelector=probe`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const name = /"name":"([^"]+)"/.exec(line)?.[1];
          const t = name && sentAt.get(name);
          if (t) delays.push(performance.now() - t);
        }
      });
      resolve(req);
    });
    req.end();
  }));
  const watches = await Promise.all(requests);
  const events = 200;
  for (let i = 0; i < events; i++) {
    const name = `probe-${i}`;
    sentAt.set(name, performance.now());
    await api.request('POST', '/api/v1/namespaces/default/pods', { ...pod(name), metadata: { ...pod(name).metadata, labels: { probe: 'yes' } } });
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 500));
  watches.forEach((w) => w.destroy());
  agent.destroy();
  delays.sort((a, b) => a - b);
  return { p50Ms: round(percentile(delays, 50)), p99Ms: round(percentile(delays, 99)), watchers: 100, events: delays.length };
}

const round = (n: number) => Math.round(n * 100) / 100;

function print(r: Record<string, unknown>): void {
  console.log('apiserver benchmark (one run, kruise up child process, HTTPS on loopback)');
  for (const [k, v] of Object.entries(r)) console.log(`  ${k.padEnd(26)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  const goals: [string, boolean][] = [
    ['>= 3000 writes/s with 32 clients (ConfigMaps)', Number(r.configMapCreatesPerSec32) >= 3000],
    ['>= 3000 writes/s with 32 clients (Pods, defaulted and validated)', Number(r.createsPerSec32) >= 3000],
    ['watch p99 < 50 ms', (r.watch as { p99Ms: number }).p99Ms < 50],
    ['RSS < 1 GB at 50k pods', Number(r.rssMiB50k) < 1024],
    ['ready < 2 s', Number(r.coldStartToReadyMs) < 2000],
  ];
  for (const [goal, met] of goals) console.log(`  goal ${met ? 'met   ' : 'MISSED'} ${goal}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
