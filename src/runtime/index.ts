/**
 * kruise-ts's controller runtime (our controller-runtime): injected clock, work queue (both defined
 * in machinery, so the API server's system controllers share them), informers with indexed caches,
 * expectations, controllers, the manager with health, metrics and leader election, and an event
 * recorder. Controllers import from here.
 */
export { FakeClock, flush, realClock, sleep, type Clock } from '../machinery/clock.js';
export { exponentialRateLimiter, type RateLimiter } from '../machinery/workqueue/rate-limiter.js';
export { WorkQueue, type QueueMetrics, type WorkQueueOptions } from '../machinery/workqueue/queue.js';
export { keyOf, objectKey, Store, type IndexFunc } from './store.js';
export { byControllerUid, byLabel, byNamespace, byNodeName, controllerRef, IndexNames } from './indexers.js';
export { Informer, type EventHandler, type InformerOptions } from './informer.js';
export { SharedInformerFactory, type InformerSelection } from './informer-factory.js';
export { ResourceVersionExpectations, ScaleExpectations, type ExpectationsOptions, type ScaleAction } from './expectations.js';
export { eventMapperOf, forControllerOwner, forSelf, parseRequestKey, requestKey, type EventMapper, type MapFunc, type Mapping, type Request } from './handlers.js';
export { TerminalError, type ReconcileContext, type ReconcileFunc, type Reconciler, type Result } from './reconcile.js';
export { Controller, type ControllerOptions } from './controller.js';
export { EventRecorder, type EventRecorderOptions, type EventType } from './events.js';
export { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
export { RuntimeMetrics } from './metrics.js';
export { Manager, type ControllerExpectations, type ManagerLeaderElection, type ManagerOptions } from './manager.js';
export {
  ControllerBuilder, wellKnownIndexes, type BuilderContext, type CacheOptions, type CacheTypes, type ControllerBuilderOptions,
  type ForOptions, type Informers, type WatchOptions, type WellKnownIndex,
} from './builder.js';
export { withWatchFaults, type WatchFaults } from './watch-faults.js';
export { observeOwnedScaleExpectations, scaleExpectationObserver } from './observe-expectations.js';
export { forEachLimited } from './parallel.js';
