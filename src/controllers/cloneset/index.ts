/**
 * Registration of the CloneSet controller on a Manager: CloneSets, the pods, PVCs and
 * ControllerRevisions they own (indexed by namespace and controller UID; pod and PVC events meet
 * the scale expectations), and a cache of nodes.
 */
import type { KObject } from '../../api/meta.js';
import { ControllerRevisions, Nodes, PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import type { CloneSet } from './pods.js';
import { CloneSetReconciler, CloneSets } from './reconcile.js';
import { awaitsReadyFlip, PodsInFlight, ReadyFlipReconciler } from './ready-flip.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export { CloneSetReconciler, CloneSets, type CloneSetReconcilerDeps } from './reconcile.js';
export { calculateDiffs, passNumbers, scaledValue, type Diffs, type GroupCounts, type PassNumbers } from './numbers.js';
export { calculateStatus } from './status.js';

export const cloneSetControllerName = 'cloneset-controller';
export const cloneSetReadyGateControllerName = 'cloneset-ready-gate';

export interface CloneSetControllerOptions {
  /** Concurrent reconciles (upstream --cloneset-workers, default 3). */
  workers?: number;
  /** Concurrent InPlaceUpdateReady writes of cloneset-ready-gate (default 8, pass.ts inPlaceWriteConcurrency). */
  readyGateWorkers?: number;
  /** Enabled feature gates (e.g. FeatureGates.enabled); default: OpenKruise's defaults. */
  gates?: (name: string) => boolean;
}

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  cloneSets: CloneSet;
  pods: Pod;
  claims: KObject;
  revisions: ControllerRevision;
  nodes: KObject;
}

/** Upstream's defaults of the gates CloneSet reads (controllers do not import the catalogue). */
const defaultGates = (name: string): boolean => name === 'InPlaceUpdateEnvFromMetadata';

export function setupCloneSetController(mgr: Manager, options: CloneSetControllerOptions = {}): Controller {
  let podUpdates: ResourceVersionExpectations | undefined;
  const readyGate = new PodsInFlight();
  const controller = mgr.controllerFor<Caches>(cloneSetControllerName, { workers: options.workers ?? 3, expectationsName: 'cloneset' })
    .for('cloneSets', CloneSets, { indexes: ['namespace', 'controllerUid'] })
    .owns('pods', Pods, { indexes: ['namespace'], expectations: 'scale' })
    .owns('claims', PersistentVolumeClaims, { indexes: ['namespace'], expectations: 'scale' })
    .owns('revisions', ControllerRevisions, { indexes: ['namespace'] })
    // node labels rank scale-in victims under topologySpreadConstraints
    .reads('nodes', Nodes)
    .complete(({ informers, client, expectations, events }) => new CloneSetReconciler({
      ...informers, client, expectations: expectations.scale, podUpdates: (podUpdates = expectations.updates), events,
      gate: options.gates ?? defaultGates, readyGate,
    }));
  // flips InPlaceUpdateReady from pod events, beside the passes (ready-flip.ts)
  const readyFlips = mgr.controllerFor<{ pods: Pod; cloneSets: CloneSet }>(cloneSetReadyGateControllerName, { workers: options.readyGateWorkers ?? 8 })
    .for('pods', Pods, { when: awaitsReadyFlip })
    .reads('cloneSets', CloneSets)
    .complete(({ informers, client }) => new ReadyFlipReconciler({ client, ...informers, podUpdates: podUpdates!, inFlight: readyGate }));
  readyGate.onPassRelease = (key) => { const [namespace, name] = key.split('/'); readyFlips.enqueue({ namespace: namespace!, name: name! }); };
  return controller;
}
