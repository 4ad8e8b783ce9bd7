/**
 * Registration of the CloneSet controller on a Manager: informers for CloneSets, their pods, PVCs
 * and ControllerRevisions (indexed by controller UID) and nodes, the handlers that meet scale
 * expectations (pods and PVCs), and the mapping of owned objects back to their CloneSet.
 */
import type { KObject } from '../../api/meta.js';
import { ControllerRevisions, Nodes, PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import { forControllerOwner, forSelf } from '../../runtime/handlers.js';
import { byControllerUid, byNamespace, IndexNames } from '../../runtime/indexers.js';
import type { Manager } from '../../runtime/manager.js';
import { observeOwnedScaleExpectations } from '../../runtime/observe-expectations.js';
import type { CloneSet } from './pods.js';
import { CloneSetReconciler, CloneSets } from './reconcile.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export { CloneSetReconciler, CloneSets, type CloneSetReconcilerDeps } from './reconcile.js';
export { calculateDiffs, passNumbers, scaledValue, type Diffs, type GroupCounts, type PassNumbers } from './numbers.js';
export { calculateStatus } from './status.js';

export const cloneSetControllerName = 'cloneset-controller';

export interface CloneSetControllerOptions {
  /** Concurrent reconciles (upstream --cloneset-workers, default 3). */
  workers?: number;
}

export function setupCloneSetController(mgr: Manager, options: CloneSetControllerOptions = {}): Controller {
  const cloneSets = mgr.informerFor<CloneSet>(CloneSets);
  const pods = mgr.informerFor<Pod>(Pods);
  const claims = mgr.informerFor<KObject>(PersistentVolumeClaims);
  const revisions = mgr.informerFor<ControllerRevision>(ControllerRevisions);
  // node labels rank scale-in victims under topologySpreadConstraints
  const nodes = mgr.informerFor<KObject>(Nodes);
  for (const inf of [cloneSets, pods, claims, revisions] as { addIndexer: typeof pods.addIndexer }[]) {
    inf.addIndexer(IndexNames.namespace, byNamespace);
    inf.addIndexer(IndexNames.controllerUid, byControllerUid);
  }
  const { scale, updates } = mgr.newExpectations('cloneset');
  observeOwnedScaleExpectations(pods, scale, 'CloneSet');
  observeOwnedScaleExpectations(claims, scale, 'CloneSet');
  const reconciler = new CloneSetReconciler({
    client: mgr.client, cloneSets, pods, claims, revisions, nodes, expectations: scale, podUpdates: updates, events: mgr.eventRecorder(cloneSetControllerName),
  });
  const owner = forControllerOwner('CloneSet', 'apps.kruise.io');
  return mgr.newController({ name: cloneSetControllerName, reconciler, workers: options.workers ?? 3 })
    .watches(cloneSets, forSelf())
    .watches(pods, owner)
    .watches(claims, owner)
    .watches(revisions, owner);
}
