/**
 * The Manager owns what its controllers share: the informer factory (caches run on every replica,
 * so a new leader starts warm), a metrics registry, the health server and leader election.
 * Controllers run only on the leader and only after every cache has synced; losing the lease stops
 * them and the manager campaigns again. `stop()` shuts down gracefully: controllers finish their
 * in-flight reconciles, then the lease is released so another replica takes over at once.
 */
import { withoutListenerLimit } from './abort.js';
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { logger, type Logger } from '../machinery/log.js';
import { realClock, withTimeout, type Clock } from '../machinery/clock.js';
import { ControllerBuilder, type CacheTypes, type ControllerBuilderOptions } from './builder.js';
import { Controller, type ControllerOptions } from './controller.js';
import { EventRecorder } from './events.js';
import { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import { startHealthServer, type HealthServer } from './health-server.js';
import { SharedInformerFactory, type InformerSelection } from './informer-factory.js';
import type { Informer, InformerOptions } from './informer.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { RuntimeMetrics } from './metrics.js';

export type ManagerLeaderElection = Omit<LeaderElectionOptions, 'client' | 'clock' | 'log' | 'onStartedLeading' | 'onStoppedLeading'> & {
  onStoppedLeading?: () => void;
};

/** One controller's expectation stores: creates and deletes, and resourceVersions of its own updates. */
export interface ControllerExpectations {
  scale: ScaleExpectations;
  updates: ResourceVersionExpectations;
}

export interface ManagerOptions {
  client: Client;
  clock?: Clock;
  log?: Logger;
  /** `/healthz`, `/readyz`, `/metrics`; defaults to 127.0.0.1 on a free port. `false` for none. */
  health?: { host?: string; port?: number } | false;
  leaderElection?: ManagerLeaderElection | false;
  informerBackoff?: InformerOptions['backoff'];
  /** Deep-freeze cached objects (tests and debugging): a mutating controller throws. */
  freezeCache?: boolean;
  /** How long `stop()` waits for in-flight reconciles (default 30 s). */
  gracefulShutdownMs?: number;
  /**
   * The client a controller writes with, by controller name, when it has an identity of its own
   * (kube-controller-manager's per-controller ServiceAccounts); the informers keep `client`.
   */
  clientFor?: (controller: string) => Client | undefined;
}

export class Manager {
  readonly client: Client;
  readonly clock: Clock;
  readonly metrics = new RuntimeMetrics();
  readonly informers: SharedInformerFactory;
  private readonly log: Logger;
  private readonly controllers: Controller[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly abort = withoutListenerLimit(new AbortController());
  private elector?: LeaderElector;
  private health?: HealthServer;
  private started = false;

  constructor(private readonly options: ManagerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.log = options.log ?? logger('manager');
    this.informers = new SharedInformerFactory({ client: this.client, clock: this.clock, log: this.log, backoff: options.informerBackoff, freeze: options.freezeCache });
  }

  informerFor<T extends KObject = KObject>(type: ResourceType, selection?: InformerSelection): Informer<T> {
    return this.informers.informerFor<T>(type, selection);
  }

  /** A controller said as what it watches; `complete()` registers it (see builder.ts). */
  controllerFor<C extends CacheTypes<C>>(name: string, options?: ControllerBuilderOptions): ControllerBuilder<C> {
    return new ControllerBuilder<C>(this, name, options);
  }

  /** A controller wired to this manager's clock, logger and metrics; started when this replica leads. */
  newController(options: Pick<ControllerOptions, 'name' | 'reconciler' | 'workers' | 'rateLimiter'>): Controller {
    if (this.controllers.some((c) => c.name === options.name)) throw new Error(`controller ${options.name} registered twice`);
    const controller = new Controller({
      ...options, clock: this.clock, log: this.log, metrics: this.metrics.controller(options.name), queueMetrics: this.metrics.queue(options.name),
    });
    this.controllers.push(controller);
    return controller;
  }

  /** The client controller `name` writes with (ManagerOptions.clientFor, else the manager's). */
  clientFor(name: string): Client {
    return this.options.clientFor?.(name) ?? this.client;
  }

  eventRecorder(component: string): EventRecorder {
    const recorder = new EventRecorder({ client: this.client, component, clock: this.clock, log: this.log });
    this.recorders.push(recorder);
    return recorder;
  }

  /** Expectation stores for one controller, on this manager's clock and leak metric. */
  newExpectations(controller: string): ControllerExpectations {
    const options = { clock: this.clock, onLeak: this.metrics.expectationLeak(controller) };
    return { scale: new ScaleExpectations(options), updates: new ResourceVersionExpectations(options) };
  }

  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : this.started && !this.abort.signal.aborted;
  }

  ready(): boolean {
    return this.started && this.informers.hasSynced();
  }

  healthAddress(): { host: string; port: number } | undefined {
    return this.health && { host: this.health.host, port: this.health.port };
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('manager already started');
    this.started = true;
    if (this.options.health !== false) {
      this.health = await startHealthServer({ ...this.options.health, ready: () => this.ready(), registry: this.metrics.registry });
    }
    this.informers.start();
    const election = this.options.leaderElection;
    if (!election) return this.startControllers();
    this.elector = new LeaderElector({
      ...election, client: this.client, clock: this.clock, log: this.log,
      onStartedLeading: () => {
        this.metrics.leaderStatus.set({ name: this.elector!.name }, 1);
        this.startControllers();
      },
      onStoppedLeading: () => {
        this.metrics.leaderStatus.set({ name: this.elector!.name }, 0);
        this.stopControllers().then(() => election.onStoppedLeading?.())
          .catch((e: unknown) => this.log.error({ err: e }, 'Failed to stop controllers'));
      },
    });
    this.elector.start();
  }

  /**
   * Graceful shutdown; `releaseLease: false` leaves the lease to expire, as a crash would. Past the
   * grace period the lease is released even if a reconcile is still running (controller-runtime too).
   */
  async stop(options: { releaseLease?: boolean } = {}): Promise<void> {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    const grace = this.options.gracefulShutdownMs ?? 30_000;
    await withTimeout(this.clock, this.stopControllers(), grace, () => new Error(`reconciles still running after ${grace} ms`))
      .catch((e: unknown) => this.log.error({ err: e }, 'Graceful shutdown incomplete'));
    await this.elector?.stop({ release: options.releaseLease ?? true });
    await Promise.all(this.recorders.map((r) => r.flush()));
    this.informers.stop();
    await this.health?.close();
    this.log.info('Manager stopped');
  }

  /** Starts the controllers once the caches have synced; returns at once. */
  private startControllers(): void {
    const start = async () => {
      if (!(await this.informers.waitForSync(this.abort.signal))) return;
      // Leadership may have been lost (or shutdown begun) while the caches synced.
      if (this.abort.signal.aborted || (this.elector && !this.elector.isLeader())) return;
      await Promise.all(this.controllers.map((c) => c.start()));
    };
    start().catch((e: unknown) => this.log.error({ err: e }, 'Failed to start controllers'));
  }

  private async stopControllers(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
  }
}
