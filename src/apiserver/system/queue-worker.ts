/**
 * The worker of the API server's system controllers (CRDs, namespaces, garbage collection): one
 * loop over the same work queue every controller uses (machinery/workqueue), with the outcome rules
 * of runtime/controller.ts. A key is queued once however often it is added and never synced twice
 * at once; a failed sync is retried with per-key exponential backoff; a returned delay looks again
 * after it; a success forgets the key's backoff. One worker per controller, so its syncs never overlap.
 *
 * These controllers follow the store through the RegistryReader and write through the Registry,
 * not through the in-process client and informers: they are the server's own post-start machinery
 * (kube-apiserver establishes CRDs and cleans up their instances in-process too), and the garbage
 * collector needs every resource's objects, which one store-wide watch gives cheaply
 * (docs/design/apiserver-system-controllers.md).
 */
import { realClock, type Clock } from '../../machinery/clock.js';
import { logger } from '../../machinery/log.js';
import { WorkQueue } from '../../machinery/workqueue/queue.js';
import { exponentialRateLimiter } from '../../machinery/workqueue/rate-limiter.js';

const log = logger('system');

/** What a sync asks for: nothing (done), or milliseconds after which to sync the key again. */
export type SyncResult = number | void;

export type SyncFunc = (key: string) => Promise<SyncResult>;

/** Backoff of a failing key: 5 ms doubling, capped at a minute (kube's namespace controller caps there too). */
const maxBackoffMs = 60_000;

export class QueueWorker {
  private readonly queue: WorkQueue;
  private running?: Promise<void>;

  constructor(private readonly name: string, private readonly sync: SyncFunc, clock: Clock = realClock) {
    this.queue = new WorkQueue({ clock, rateLimiter: exponentialRateLimiter({ maxMs: maxBackoffMs }) });
  }

  /** Queues `key` (before `start()` too: the worker picks it up once started). */
  add(key: string): void {
    this.queue.add(key);
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Drops queued keys and waits for the sync in progress, if any. */
  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.running;
  }

  private async run(): Promise<void> {
    for (let key = await this.queue.get(); key !== undefined; key = await this.queue.get()) {
      try {
        await this.syncKey(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async syncKey(key: string): Promise<void> {
    let again: SyncResult;
    try {
      again = await this.sync(key);
    } catch (err) {
      log.error({ controller: this.name, key, err }, 'system controller sync failed');
      this.queue.addRateLimited(key);
      return;
    }
    this.queue.forget(key);
    if (typeof again === 'number') this.queue.addAfter(key, again);
  }
}
