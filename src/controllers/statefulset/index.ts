/**
 * Registration of the Advanced StatefulSet controller (`statefulset-controller`) on a Manager:
 * informers for sets, pods, claims and ControllerRevisions with their indexes, scale
 * expectations observed from pod events, and the mapping of pods (owned, or orphans a set could
 * adopt) and revisions back to their set.
 */
import { ControllerRevisions, PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import type { Controller } from '../../runtime/controller.js';
import { forControllerOwner, forSelf, type MapFunc } from '../../runtime/handlers.js';
import { byControllerUid, byNamespace, controllerRef, IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { observeOwnedScaleExpectations } from '../../runtime/observe-expectations.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { ordinalOf } from './ordinals.js';
import { StatefulSetReconciler } from './reconcile.js';
import { gateReader, StatefulSets, type Claim, type StatefulSet } from './types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export { StatefulSetReconciler, type StatefulSetReconcilerDeps } from './reconcile.js';
export { calculateStatus, statusChanged } from './status.js';
export { replicaRange, parseReserveOrdinals, ordinalOf, podName, type ReplicaRange } from './ordinals.js';
export { statefulSetGateDefaults, StatefulSets, type StatefulSet, type StatefulSetGate } from './types.js';

export const statefulSetControllerName = 'statefulset-controller';

export interface AdvancedStatefulSetOptions {
  /** Concurrent reconciles (upstream --statefulset-workers, default 3). */
  workers?: number;
  /** Enabled feature gates (e.g. FeatureGates.enabled); default: OpenKruise's defaults. */
  gates?: (name: string) => boolean;
  /** Client for the controller's writes; default the manager's (tests wrap it to count calls). */
  client?: Client;
}

/** Orphan pods named `<set>-<n>` map to the sets in their namespace whose selector matches. */
function orphanToSets(sets: Informer<StatefulSet>): MapFunc<Pod> {
  return (pod) => {
    if (controllerRef(pod) || pod.metadata.deletionTimestamp) return [];
    return sets.byIndex(IndexNames.namespace, pod.metadata.namespace ?? '').filter((set) => {
      if (ordinalOf(set.metadata.name!, pod.metadata.name) === undefined) return false;
      try {
        return selectorFromLabelSelector(set.spec.selector as MetaLabelSelector).matches(pod.metadata.labels ?? {});
      } catch {
        return false;
      }
    }).map((set) => ({ namespace: set.metadata.namespace, name: set.metadata.name! }));
  };
}

export function setupAdvancedStatefulSetController(mgr: Manager, options: AdvancedStatefulSetOptions = {}): Controller {
  const sets = mgr.informerFor<StatefulSet>(StatefulSets);
  const pods = mgr.informerFor<Pod>(Pods);
  const claims = mgr.informerFor<Claim>(PersistentVolumeClaims);
  const revisions = mgr.informerFor<ControllerRevision>(ControllerRevisions);
  for (const inf of [sets, pods, claims, revisions] as { addIndexer: typeof pods.addIndexer }[]) {
    inf.addIndexer(IndexNames.namespace, byNamespace);
    inf.addIndexer(IndexNames.controllerUid, byControllerUid);
  }
  const { scale, updates } = mgr.newExpectations('statefulset');
  observeOwnedScaleExpectations(pods, scale, 'StatefulSet');
  const client = options.client ?? mgr.client;
  const reconciler = new StatefulSetReconciler({
    client, sets, pods, claims, revisions, expectations: scale, podWrites: updates,
    events: mgr.eventRecorder(statefulSetControllerName),
    updater: new InPlaceUpdater(client, { now: () => new Date(mgr.clock.now()) }),
    gate: gateReader(options.gates),
  });
  const podToSet = forControllerOwner<Pod>('StatefulSet', 'apps.kruise.io');
  const orphans = orphanToSets(sets);
  return mgr.newController({ name: statefulSetControllerName, reconciler, workers: options.workers ?? 3 })
    .watches(sets, forSelf())
    .watches(pods, (pod) => [...podToSet(pod), ...orphans(pod)])
    .watches(revisions, forControllerOwner('StatefulSet', 'apps.kruise.io'));
}
