/**
 * An informer for one resource type (optionally one namespace and selectors): a Reflector lists and
 * watches, this keeps the cache (a Store with indexes) and calls event handlers, relists included
 * (a relist is reported as the adds, updates and deletes it implies).
 * Objects handed to handlers and returned by get/list/byIndex are the cache's own: never mutate them.
 */
import { withoutListenerLimit } from './abort.js';
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { logger, type Logger } from '../machinery/log.js';
import { abortable, realClock, type Clock } from '../machinery/clock.js';
import { changeOf, diffAgainstCache, Notifier, type EventHandler } from './notifier.js';
import { cachedStrings } from './intern.js';
import { sharedWithStore } from '../client/watch-decoder.js';
import { Reflector } from './reflector.js';
import { keyOf, objectKey, Store, type IndexFunc } from './store.js';

export type { EventHandler } from './notifier.js';

/** Objects whose strings are interned already. */
const interned = new WeakSet<object>();

export interface InformerOptions {
  client: Client;
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  clock?: Clock;
  log?: Logger;
  /** Retry delays after failures: initial doubling to max (defaults 500 ms to 30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Deep-freeze cached objects, so a handler that mutates one throws (tests, debugging). */
  freeze?: boolean;
  /**
   * Keep `metadata.managedFields` in cached objects. Off by default, as with controller-runtime's
   * TransformStripManagedFields: no controller reads them from a cache, and for a pod written by
   * scheduler, kubelet and controllers they are a third of the object.
   */
  keepManagedFields?: boolean;
}

export class Informer<T extends KObject = KObject> {
  readonly type: ResourceType;
  private readonly store: Store<T>;
  private readonly notifier: Notifier<T>;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly abort = withoutListenerLimit(new AbortController());
  private readonly reflector: Reflector<T>;
  private readonly keepManagedFields: boolean;
  private started = false;
  private synced = false;
  private markSynced: () => void = () => undefined;
  private readonly firstSync = new Promise<void>((resolve) => { this.markSynced = resolve; });

  constructor(options: InformerOptions) {
    this.type = options.type;
    if (options.namespace && !options.type.namespaced) throw new Error(`${options.type.resource} is cluster-scoped: no namespace allowed`);
    this.store = new Store<T>(options.freeze ?? false);
    this.keepManagedFields = options.keepManagedFields ?? false;
    this.clock = options.clock ?? realClock;
    this.log = (options.log ?? logger('informer')).child({ resource: options.type.resource, namespace: options.namespace });
    this.notifier = new Notifier<T>(this.store, this.log);
    const { client, type, namespace, labelSelector, fieldSelector, backoff } = options;
    // Trimming managedFields is the one change made to decoded objects; every informer that trims
    // and does not freeze can share them with the others (see WatchOptions.readOnlyObjects).
    const readOnlyObjects = !this.keepManagedFields && !options.freeze;
    this.reflector = new Reflector<T>({ client, type, selection: { namespace, labelSelector, fieldSelector }, clock: this.clock, log: this.log, backoff, readOnlyObjects }, {
      replace: (items) => this.replace(items),
      upsert: (obj) => this.upsert(obj),
      remove: (obj) => this.remove(obj),
    });
  }

  /** Registers handlers; objects already cached are replayed as adds. Returns an unsubscribe. */
  addEventHandler(handler: EventHandler<T>): () => void {
    return this.notifier.add(handler);
  }

  /** Adds an index; a name already present is kept (controllers sharing an informer add the same ones). */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (!this.store.hasIndexer(name)) this.store.addIndexer(name, fn);
  }

  byIndex(name: string, value: string): T[] {
    return this.store.byIndex(name, value);
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.store.get(keyOf(namespace, name));
  }

  list(): T[] {
    return this.store.list();
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true once the first list is in the cache, false if stopped or `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return abortable(this.firstSync.then(() => true), false, this.abort.signal, signal);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.reflector.run(this.abort.signal).catch((e: unknown) => this.log.error({ err: e }, 'Informer stopped by an unexpected error'));
  }

  stop(): void {
    this.abort.abort();
  }

  /**
   * Objects come decoded for this informer, or shared with the other in-process ones and the
   * embedded store (without managedFields already, SharedWatchEvent). Interning rewrites string
   * values of decoded ones in place; the store's own are not interned: a cache that shares them
   * adds no copies, and the walk was 2 % of the plane's CPU (performance.md §21).
   */
  private trim(obj: T): T {
    if (!this.keepManagedFields && obj.metadata?.managedFields) delete obj.metadata.managedFields;
    // in-process watchers share one event: walked once, not once per informer
    if (!interned.has(obj) && !sharedWithStore(obj)) {
      interned.add(obj);
      cachedStrings.internValues(obj);
    }
    return obj;
  }

  private replace(items: T[]): void {
    const notifications = diffAgainstCache(this.store, items.map((o) => this.trim(o)));
    this.synced = true;
    this.markSynced();
    this.notifier.dispatch(notifications);
  }

  private upsert(obj: T): void {
    this.trim(obj);
    this.notifier.dispatch(changeOf(this.store.upsert(obj), obj));
  }

  private remove(obj: T): void {
    this.trim(obj);
    this.store.remove(objectKey(obj));
    this.notifier.dispatch([{ type: 'delete', obj }]);
  }
}
