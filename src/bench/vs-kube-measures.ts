/**
 * The request mix `bench:vs-kube-apiserver` sends to each API server: pod and ConfigMap creates, merge
 * and strategic-merge patches, lists of 5,000 pods and watch delivery to 100 watchers. Each measure
 * runs in its own namespace, so the two servers see the same requests whatever ran before.
 */
import https from 'node:https';
import type { ClientRequest } from 'node:http';
import type { ApiClient } from '../testing/process.js';
import { percentile } from './stats.js';
import type { LoadRequest } from './vs-kube-load.js';

export interface Target {
  name: string;
  /** The server's processes, for CPU per request. */
  pids: number[];
  api: ApiClient;
  url: string;
  caPem: string;
  token: string;
}

/** A pod no scheduler picks up (`schedulerName` of none), so only the API server works on it. */
export const benchPod = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, labels: { app: 'bench', tier: 'web', 'pod-template-hash': '5d8f7c9b4', ...labels }, annotations: { note: 'x'.repeat(400) } },
  spec: {
    schedulerName: 'bench-none',
    containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }],
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }],
  },
});

const expect = (status: number, r: { status: number; text: string }, what: string) => {
  if (r.status !== status) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
};

/** A fresh namespace whose `default` ServiceAccount exists (pod admission needs it on kube-apiserver). */
export async function namespace(t: Target, name: string): Promise<string> {
  expect(201, await t.api.request('POST', '/api/v1/namespaces', { metadata: { name } }), `create namespace ${name}`);
  for (let i = 0; i < 200; i++) {
    if ((await t.api.request('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200) return name;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${t.name}: no default ServiceAccount in ${name}`);
}

const post = (path: string, body: unknown): LoadRequest => ({ method: 'POST', path, body: JSON.stringify(body), expect: 201 });

/** `count` pod creates `<prefix>-<i>`, bodies serialised ahead. */
export const podCreates = (ns: string, prefix: string, count: number): LoadRequest[] =>
  Array.from({ length: count }, (_, i) => post(`/api/v1/namespaces/${ns}/pods`, benchPod(`${prefix}-${i}`)));

export const configMapCreates = (ns: string, count: number): LoadRequest[] =>
  Array.from({ length: count }, (_, i) => post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data: { key: 'value' } }));

/** How often each pod was patched: every patch changes the pod (a no-op patch costs a server much less). */
const patchCount = new Map<string, number>();

/** `count` patches of pod `<prefix>-<i mod pods>`: a label (merge) or a container image (strategic, by container name). */
export function podPatches(t: Target, ns: string, prefix: string, pods: number, count: number, kind: 'merge' | 'strategic'): LoadRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const key = `${t.name}/${ns}/${prefix}-${i % pods}`;
    const n = (patchCount.get(key) ?? 0) + 1;
    patchCount.set(key, n);
    const body = kind === 'merge'
      ? { metadata: { labels: { round: String(n) } } }
      : { spec: { containers: [{ name: 'app', image: `nginx:1.${25 + n}` }] } };
    return { method: 'PATCH', path: `/api/v1/namespaces/${ns}/pods/${prefix}-${i % pods}`, body: JSON.stringify(body), expect: 200,
      contentType: `application/${kind === 'merge' ? 'merge' : 'strategic-merge'}-patch+json` };
  });
}


/** Median and worst time of `samples` full lists of the namespace's pods (at least `expected` items). */
export async function listLatency(t: Target, ns: string, expected: number, samples = 7): Promise<{ p50: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const r = await t.api.request('GET', `/api/v1/namespaces/${ns}/pods`);
    if ((r.body?.items?.length ?? 0) < expected) throw new Error(`${t.name}: list returned ${r.body?.items?.length}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50)), max: round(times[times.length - 1]) };
}

/** 100 watchers on the namespace's pods; each create's delivery delay is measured at every watcher. */
export async function watchDelivery(t: Target, ns: string, events = 200): Promise<{ p50: number; p99: number; delivered: number }> {
  const rv = (await t.api.request('GET', `/api/v1/namespaces/${ns}/pods?limit=1`)).body.metadata.resourceVersion as string;
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  const agent = new https.Agent({ ca: t.caPem, keepAlive: true, maxSockets: 200 });
  const open = () => new Promise<ClientRequest>((resolve) => {
    const req = https.request(`${t.url}/api/v1/namespaces/${ns}/pods?watch=true&resourceVersion=${rv}`, { agent, headers: { authorization: `Bearer ${t.token}` } }, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const sent = sentAt.get(/"name":"([^"]+)"/.exec(buf.slice(0, nl))?.[1] ?? '');
          if (sent) delays.push(performance.now() - sent);
          buf = buf.slice(nl + 1);
        }
      });
      resolve(req);
    });
    req.end();
  });
  const watches = await Promise.all(Array.from({ length: 100 }, open));
  for (let i = 0; i < events; i++) {
    const name = `probe-${i}`;
    sentAt.set(name, performance.now());
    expect(201, await t.api.request('POST', `/api/v1/namespaces/${ns}/pods`, benchPod(name)), 'probe create');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1000));
  for (const w of watches) w.destroy();
  agent.destroy();
  delays.sort((a, b) => a - b);
  return { p50: round(percentile(delays, 50)), p99: round(percentile(delays, 99)), delivered: delays.length };
}

const round = (n: number) => Math.round(n * 10) / 10;
