/**
 * The load generator of `bench:vs-kube-apiserver`: 32 clients spread over 4 worker threads (8 each),
 * so the one bench process's event loop no longer caps what either server can be sent; the same
 * generator drives both servers. It reports its own CPU per request next to the servers'
 * (docs/design/performance.md §13).
 */
import { Worker } from 'node:worker_threads';
import type { LoadBatch, LoadDone, LoadRequest } from './vs-kube-load-worker.js';

export type { LoadRequest };

export interface LoadTarget {
  url: string;
  caPem: string;
  token: string;
}

export interface LoadResult {
  /** Requests per second, from the first send to the last answer. */
  rate: number;
  /** This process's CPU (all threads) per request, in ms. */
  clientCpuMs: number;
}

const CLIENTS_PER_WORKER = 8;

export class LoadGenerator {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, (done: LoadDone) => void>();
  private nextId = 0;

  constructor(threads = 4) {
    for (let i = 0; i < threads; i++) {
      const w = new Worker(new URL('./vs-kube-load-worker.js', import.meta.url));
      w.on('message', (done: LoadDone) => {
        this.pending.get(done.id)?.(done);
        this.pending.delete(done.id);
      });
      this.workers.push(w);
    }
  }

  /** Sends `requests` with `clients` concurrent clients (8 per thread; fewer clients use fewer threads). */
  async run(target: LoadTarget, requests: LoadRequest[], clients: number): Promise<LoadResult> {
    const threads = Math.min(this.workers.length, Math.max(1, Math.ceil(clients / CLIENTS_PER_WORKER)));
    const shares: LoadRequest[][] = Array.from({ length: threads }, () => []);
    requests.forEach((r, i) => shares[i % threads].push(r));
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const done = await Promise.all(shares.map((share, i) => new Promise<LoadDone>((resolve) => {
      const batch: LoadBatch = { id: this.nextId++, url: target.url, caPem: target.caPem, token: target.token, clients: Math.ceil(clients / threads), requests: share };
      this.pending.set(batch.id, resolve);
      this.workers[i].postMessage(batch);
    })));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const failed = done.find((d) => d.error);
    if (failed) throw new Error(failed.error);
    return { rate: Math.round(requests.length / seconds), clientCpuMs: Math.round((cpu.user + cpu.system) / 1000 / requests.length * 100) / 100 };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
