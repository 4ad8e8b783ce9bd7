/**
 * The types around ControllerBuilder: the options of each declaration, the well-known indexes a
 * declaration can ask for by name, and the context every builder callback receives.
 */
import type { WatchBatching } from './controller.js';
import type { KObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import type { Clock } from '../machinery/clock.js';
import type { EventRecorder } from './events.js';
import { byControllerUid, byNamespace, byNodeName, IndexNames } from './indexers.js';
import type { InformerSelection } from './informer-factory.js';
import type { Informer } from './informer.js';
import type { ControllerExpectations, Manager } from './manager.js';
import type { RateLimiter } from '../machinery/workqueue/rate-limiter.js';
import type { IndexFunc } from './store.js';

/** The object type of each cache a controller reads, by the name its reconciler knows it: `{ pods: Pod }`. */
export type CacheTypes<C> = { [K in keyof C]: KObject };

/** The informers declared so far (`D`), typed. */
export type Informers<C extends CacheTypes<C>, D extends keyof C> = { readonly [K in D]: Informer<C[K]> };

export interface ControllerBuilderOptions {
  /** Concurrent reconciles (default 1). */
  workers?: number;
  rateLimiter?: RateLimiter;
  /** Client handed to the callbacks (default the manager's for this controller; tests wrap it to count calls). */
  client?: Client;
  /** Component of the event recorder (default the controller name). */
  eventSource?: string;
  /** Label of the expectation stores in the leak metric (default the controller name). */
  expectationsName?: string;
}

/** Indexes shared by many controllers, asked for by name; `withIndex()` adds any other. */
export const wellKnownIndexes = {
  namespace: { name: IndexNames.namespace, fn: byNamespace },
  controllerUid: { name: IndexNames.controllerUid, fn: byControllerUid },
  nodeName: { name: IndexNames.nodeName, fn: byNodeName },
} satisfies Record<string, { name: string; fn: IndexFunc<KObject> }>;

export type WellKnownIndex = keyof typeof wellKnownIndexes;

export interface CacheOptions {
  /** Which objects the informer holds (default every object of the type). */
  selection?: InformerSelection;
  indexes?: readonly WellKnownIndex[];
}

export interface ForOptions<T extends KObject> extends CacheOptions {
  /** Enqueue only objects for which this holds (old and new object judged apart on update). */
  when?: (obj: T) => boolean;
}

export interface WatchOptions extends CacheOptions, WatchBatching {
  /** Observe the primary's scale expectations from this kind's creates and deletes. */
  expectations?: 'scale';
}

/** What every builder callback gets. Expectations and events are made on first use only. */
export interface BuilderContext<I> {
  readonly informers: I;
  readonly client: Client;
  readonly clock: Clock;
  readonly expectations: ControllerExpectations;
  readonly events: EventRecorder;
}

export function lazyContext<I>(mgr: Manager, name: string, options: ControllerBuilderOptions, informers: I): BuilderContext<I> {
  let expectations: ControllerExpectations | undefined;
  let events: EventRecorder | undefined;
  return {
    informers,
    client: options.client ?? mgr.clientFor(name),
    clock: mgr.clock,
    get expectations() { return (expectations ??= mgr.newExpectations(options.expectationsName ?? name)); },
    get events() { return (events ??= mgr.eventRecorder(options.eventSource ?? name)); },
  };
}
