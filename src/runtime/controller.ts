/**
 * A controller: informer events mapped to request keys, a work queue, and N workers calling
 * `reconcile(ctx, req)`. Outcomes follow controller-runtime's reconcileHandler: a throw is a
 * rate-limited retry, a TerminalError is logged and counted but not retried, `requeueAfterMs` re-adds
 * the key after that delay, success forgets its backoff. Nothing a reconciler throws escapes.
 */
import { withoutListenerLimit } from './abort.js';
import { randomUUID } from 'node:crypto';
import type { KObject } from '../api/meta.js';
import { logger, type Logger } from '../machinery/log.js';
import { realClock, type Clock } from '../machinery/clock.js';
import { parseRequestKey, requestKey, type Request, eventMapperOf, type EventMapper, type Mapping } from './handlers.js';
import type { Informer } from './informer.js';
import { noControllerMetrics, type ControllerMetrics } from './metrics.js';
import type { RateLimiter } from '../machinery/workqueue/rate-limiter.js';
import { TerminalError, type ReconcileContext, type ReconcileFunc, type Reconciler, type Result } from './reconcile.js';
import { WorkQueue, type QueueMetrics } from '../machinery/workqueue/queue.js';

export { TerminalError, type ReconcileContext, type ReconcileFunc, type Reconciler, type Result } from './reconcile.js';
export type { Request } from './handlers.js';

export interface ControllerOptions {
  name: string;
  reconciler: Reconciler;
  workers?: number;
  clock?: Clock;
  log?: Logger;
  metrics?: ControllerMetrics;
  queueMetrics?: QueueMetrics;
  rateLimiter?: RateLimiter;
}

interface Source {
  informer: Informer<KObject>;
  mapper: EventMapper<KObject>;
  batchMs?: number;
}

export interface WatchBatching {
  /**
   * Enqueue the requests this source maps to after `batchMs`; a request already waiting keeps its
   * time, so a burst of events becomes one reconcile (kube's Job controller batches pod events by 1 s).
   */
  batchMs?: number;
}

export class Controller {
  readonly name: string;
  private readonly reconcile: ReconcileFunc;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly metrics: ControllerMetrics;
  private readonly sources: Source[] = [];
  private run?: { queue: WorkQueue; abort: AbortController; unsubscribe: (() => void)[]; workers: Promise<void>[] };

  constructor(private readonly options: ControllerOptions) {
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(options.name)) throw new Error(`invalid controller name ${JSON.stringify(options.name)}`);
    if ((options.workers ?? 1) < 1) throw new Error(`workers must be at least 1, got ${options.workers}`);
    const r = options.reconciler;
    this.reconcile = typeof r === 'function' ? r : (ctx, req) => r.reconcile(ctx, req);
    this.name = options.name;
    this.clock = options.clock ?? realClock;
    this.log = (options.log ?? logger('controller')).child({ controller: options.name });
    this.metrics = options.metrics ?? noControllerMetrics;
  }

  /**
   * Enqueues what `mapping` returns for the events of `informer`: a MapFunc sees every event (on
   * update, both the old and the new object), an EventMapper only the events it maps.
   */
  watches<T extends KObject>(informer: Informer<T>, mapping: Mapping<T>, batching: WatchBatching = {}): this {
    if (this.run) throw new Error(`controller ${this.name}: watches() after start()`);
    // Sources are stored type-erased; the mapper only ever sees objects from its own informer.
    this.sources.push({ informer, mapper: eventMapperOf(mapping), batchMs: batching.batchMs } as unknown as Source);
    return this;
  }

  /** Enqueues a request from outside the informers (ignored while stopped). */
  enqueue(req: Request): void {
    this.run?.queue.add(requestKey(req));
  }

  isRunning(): boolean {
    return this.run !== undefined;
  }

  /** Subscribes to the sources, waits for their caches, then starts the workers. */
  async start(): Promise<void> {
    if (this.run) return;
    const queue = new WorkQueue({ clock: this.clock, rateLimiter: this.options.rateLimiter, metrics: this.options.queueMetrics });
    const run = { queue, abort: withoutListenerLimit(new AbortController()), unsubscribe: [] as (() => void)[], workers: [] as Promise<void>[] };
    this.run = run;
    for (const { informer, mapper: { onAdd, onUpdate, onDelete }, batchMs } of this.sources) {
      const add = (reqs: Request[]) => { for (const r of reqs) queue.addAfter(requestKey(r), batchMs ?? 0); };
      run.unsubscribe.push(informer.addEventHandler({
        onAdd: onAdd && ((o) => add(onAdd(o))),
        onUpdate: onUpdate && ((old, o) => add(onUpdate(old, o))),
        onDelete: onDelete && ((o) => add(onDelete(o))),
      }));
    }
    const synced = await Promise.all(this.sources.map((s) => s.informer.waitForSync(run.abort.signal)));
    if (!synced.every(Boolean) || run.abort.signal.aborted) return;
    for (let i = 0; i < (this.options.workers ?? 1); i++) run.workers.push(this.worker(queue, run.abort.signal));
    this.log.debug({ workers: run.workers.length }, 'Starting workers');
  }

  /** Stops taking work, aborts in-flight reconciles' signal and waits for them to return. */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    for (const unsubscribe of run.unsubscribe) unsubscribe();
    run.abort.abort();
    run.queue.shutDown();
    await Promise.all(run.workers);
    this.log.debug('All workers finished');
  }

  private async worker(queue: WorkQueue, signal: AbortSignal): Promise<void> {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      this.metrics.activeWorkers(1);
      try {
        await this.reconcileKey(queue, key, signal);
      } finally {
        this.metrics.activeWorkers(-1);
        queue.done(key);
      }
    }
  }

  private async reconcileKey(queue: WorkQueue, key: string, signal: AbortSignal): Promise<void> {
    const ctx = new ReconcileScope(signal, this.clock, this.log, key);
    const started = this.clock.now();
    const seconds = () => (this.clock.now() - started) / 1000;
    let result: Result;
    try {
      result = (await this.reconcile(ctx, parseRequestKey(key))) ?? {};
    } catch (e) {
      const terminal = e instanceof TerminalError;
      if (terminal) queue.forget(key);
      else queue.addRateLimited(key);
      this.metrics.errored(terminal);
      this.metrics.reconciled('error', seconds());
      ctx.log.error({ err: e, terminal }, 'Reconciler error');
      return;
    }
    queue.forget(key);
    if (result.requeueAfterMs && result.requeueAfterMs > 0) {
      queue.addAfter(key, result.requeueAfterMs);
      this.metrics.reconciled('requeue_after', seconds());
    } else {
      this.metrics.reconciled('success', seconds());
    }
  }
}

/**
 * One reconcile's context. Its logger, tagged with the key and a fresh reconcileID, is made on first
 * use: most reconciles log nothing, and a child logger and a UUID per reconcile were 1 % of the plane.
 */
class ReconcileScope implements ReconcileContext {
  private logger?: Logger;
  private id?: string;

  constructor(readonly signal: AbortSignal, readonly clock: Clock, private readonly parent: Logger, private readonly key: string) {}

  get reconcileId(): string {
    return (this.id ??= randomUUID());
  }

  get log(): Logger {
    return (this.logger ??= this.parent.child({ key: this.key, reconcileID: this.reconcileId }));
  }
}
