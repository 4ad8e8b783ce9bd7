/**
 * A controller said as what it watches (controller-runtime's builder): `for` the primary kind, `owns`
 * the kinds it creates, `watches` others with a mapping, `reads` caches it only looks things up in,
 * then `complete` with the reconciler built from the typed informers, client, expectations and
 * events. Informers come from the manager's shared factory, so two controllers asking for the same
 * kind, or the same index, share one cache and one index.
 *
 *   mgr.controllerFor<{ sets: StatefulSet; pods: Pod }>('statefulset', { workers: 5 })
 *     .for('sets', StatefulSets)
 *     .owns('pods', Pods, { expectations: 'scale' })
 *     .complete(({ informers, client, expectations }) => new Reconciler({ ...informers, client, expectations }));
 */
import type { ResourceType } from '../api/resource-type.js';
import {
  lazyContext, wellKnownIndexes, type BuilderContext, type CacheOptions, type CacheTypes, type ControllerBuilderOptions,
  type ForOptions, type Informers, type WatchOptions,
} from './builder-context.js';
import type { Controller, WatchBatching } from './controller.js';
import { forControllerOwner, forSelf, type Mapping } from './handlers.js';
import type { EventHandler, Informer } from './informer.js';
import type { Manager } from './manager.js';
import { scaleExpectationObserver } from './observe-expectations.js';
import type { Reconciler } from './reconcile.js';
import type { IndexFunc } from './store.js';

export * from './builder-context.js';

type Undeclared<C, D> = Exclude<keyof C & string, D>;
type Next<C extends CacheTypes<C>, D extends keyof C & string, K extends keyof C & string> = ControllerBuilder<C, D | K>;

export class ControllerBuilder<C extends CacheTypes<C>, D extends keyof C & string = never> {
  private readonly informers: { [K in keyof C]?: Informer<C[K]> } = {};
  private readonly sources: ((controller: Controller) => void)[] = [];
  private readonly context: BuilderContext<Informers<C, D>>;
  private primary?: ResourceType;
  private completed = false;

  constructor(private readonly mgr: Manager, readonly name: string, private readonly options: ControllerBuilderOptions = {}) {
    // The record fills in as declarations come; the type parameter D tracks what is there.
    this.context = lazyContext(mgr, name, options, this.informers as Informers<C, D>);
  }

  /** The primary kind: each of its events enqueues the object itself. */
  for<K extends Undeclared<C, D>>(key: K, type: ResourceType, options: ForOptions<C[K]> = {}): Next<C, D, K> {
    if (this.primary) throw new Error(`controller ${this.name}: for() called twice`);
    this.primary = type;
    const self = forSelf<C[K]>();
    const when = options.when;
    return this.declare(key, type, options).enqueue(key, when ? (obj) => (when(obj) ? self(obj) : []) : self);
  }

  /** A kind the primary controls: its events enqueue the controller owner; indexed by controller UID. */
  owns<K extends Undeclared<C, D>>(key: K, type: ResourceType, options: WatchOptions = {}): Next<C, D, K> {
    const owner = this.primaryType('owns');
    const indexes = [...(options.indexes ?? []), 'controllerUid' as const];
    return this.declare(key, type, { ...options, indexes }).observeScale(key, options).enqueue(key, forControllerOwner<C[K]>(owner.kind, owner.group));
  }

  /** Any other kind, mapped to requests by `mapping` (built from the informers declared so far). */
  watches<K extends Undeclared<C, D>>(
    key: K, type: ResourceType, mapping: (ctx: BuilderContext<Informers<C, D | K>>) => Mapping<C[K]>, options: WatchOptions = {},
  ): Next<C, D, K> {
    const next = this.declare(key, type, options).observeScale(key, options);
    return next.enqueue(key, mapping(next.context), options);
  }

  /** A cache the reconciler reads whose events enqueue nothing. */
  reads<K extends Undeclared<C, D>>(key: K, type: ResourceType, options: CacheOptions = {}): Next<C, D, K> {
    return this.declare(key, type, options);
  }

  /** Bookkeeping kept in step with a cache (expectations, health), registered now, running while not leading too. */
  observes<K extends D>(key: K, handler: (ctx: BuilderContext<Informers<C, D>>) => EventHandler<C[K]>): this {
    this.informer(key).addEventHandler(handler(this.context));
    return this;
  }

  /** An index beyond the well-known ones; a name the informer already has is kept. */
  withIndex<K extends D>(key: K, name: string, fn: IndexFunc<C[K]>): this {
    this.informer(key).addIndexer(name, fn);
    return this;
  }

  /** Registers the controller with the manager; it starts when the manager leads. */
  complete(reconciler: (ctx: BuilderContext<Informers<C, D>>) => Reconciler): Controller {
    this.primaryType('complete');
    if (this.completed) throw new Error(`controller ${this.name}: complete() called twice`);
    this.completed = true;
    const { workers, rateLimiter } = this.options;
    const controller = this.mgr.newController({ name: this.name, reconciler: reconciler(this.context), workers, rateLimiter });
    for (const watch of this.sources) watch(controller);
    return controller;
  }

  private declare<K extends Undeclared<C, D>>(key: K, type: ResourceType, options: CacheOptions): Next<C, D, K> {
    if (this.completed) throw new Error(`controller ${this.name}: ${key} declared after complete()`);
    if (key in this.informers) throw new Error(`controller ${this.name}: ${key} declared twice`);
    const informer = this.mgr.informerFor<C[K]>(type, options.selection);
    for (const index of options.indexes ?? []) informer.addIndexer(wellKnownIndexes[index].name, wellKnownIndexes[index].fn);
    this.informers[key] = informer;
    return this as Next<C, D, K>;
  }

  private enqueue<K extends D>(key: K, mapping: Mapping<C[K]>, batching: WatchBatching = {}): this {
    const informer = this.informer(key);
    this.sources.push((controller) => controller.watches(informer, mapping, batching));
    return this;
  }

  private observeScale<K extends D>(key: K, options: WatchOptions): this {
    if (options.expectations !== 'scale') return this;
    const owner = this.primaryType('expectations');
    return this.observes(key, ({ expectations }) => scaleExpectationObserver(expectations.scale, owner.kind));
  }

  private informer<K extends D>(key: K): Informer<C[K]> {
    const informer = this.informers[key];
    if (!informer) throw new Error(`controller ${this.name}: ${key} not declared`);
    return informer;
  }

  private primaryType(method: string): ResourceType {
    if (!this.primary) throw new Error(`controller ${this.name}: ${method} needs for() first`);
    return this.primary;
  }
}
