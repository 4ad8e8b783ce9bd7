/**
 * One load-generator thread of `bench:vs-kube-apiserver` (vs-kube-load.ts): sends the requests it is
 * given with its share of the clients over keep-alive HTTPS and answers when all are done. The bodies
 * come pre-serialised and answers are only drained and status-checked, so a request costs this
 * thread little (docs/design/performance.md §13).
 */
import https from 'node:https';
import { parentPort } from 'node:worker_threads';

export interface LoadRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  /** The HTTP status that counts as success. */
  expect: number;
}

export interface LoadBatch {
  id: number;
  url: string;
  caPem: string;
  token: string;
  clients: number;
  requests: LoadRequest[];
}

export interface LoadDone {
  id: number;
  /** The first failure's description, if any request failed. */
  error?: string;
}

/** One keep-alive agent per server, kept across batches so sockets are set up once. */
const agents = new Map<string, https.Agent>();

function send(batch: LoadBatch, agent: https.Agent, r: LoadRequest): Promise<void> {
  const url = new URL(batch.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${batch.token}`, accept: 'application/json' };
    if (r.body !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(r.body));
    }
    const req = https.request({ host: url.hostname, port: url.port, path: r.path, method: r.method, agent, headers }, (res) => {
      if (res.statusCode === r.expect) {
        res.resume();
        res.on('end', resolve);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => reject(new Error(`${r.method} ${r.path}: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`)));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

async function run(batch: LoadBatch): Promise<LoadDone> {
  let agent = agents.get(batch.url);
  if (!agent) {
    agent = new https.Agent({ ca: batch.caPem, keepAlive: true, maxSockets: 64 });
    agents.set(batch.url, agent);
  }
  let next = 0;
  try {
    await Promise.all(Array.from({ length: batch.clients }, async () => {
      while (next < batch.requests.length) await send(batch, agent, batch.requests[next++]);
    }));
    return { id: batch.id };
  } catch (e) {
    return { id: batch.id, error: (e as Error).message };
  }
}

parentPort?.on('message', (batch: LoadBatch) => {
  void run(batch).then((done) => parentPort!.postMessage(done));
});
