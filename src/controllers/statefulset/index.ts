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
import { forControllerOwner, type MapFunc } from '../../runtime/handlers.js';
import { controllerRef, IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
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

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  sets: StatefulSet;
  pods: Pod;
  claims: Claim;
  revisions: ControllerRevision;
}

export function setupAdvancedStatefulSetController(mgr: Manager, options: AdvancedStatefulSetOptions = {}): Controller {
  const indexes = ['namespace', 'controllerUid'] as const;
  return mgr.controllerFor<Caches>(statefulSetControllerName, { workers: options.workers ?? 3, client: options.client, expectationsName: 'statefulset' })
    .for('sets', StatefulSets, { indexes: indexes })
    .watches('pods', Pods, ({ informers }) => ownerOrOrphanToSets(informers.sets), { indexes: indexes, expectations: 'scale' })
    .reads('claims', PersistentVolumeClaims, { indexes: indexes })
    .owns('revisions', ControllerRevisions, { indexes: indexes })
    .complete(({ informers, client, clock, expectations, events }) => {
      const gate = gateReader(options.gates);
      return new StatefulSetReconciler({
        ...informers, client, expectations: expectations.scale, podWrites: expectations.updates, events, gate,
        updater: new InPlaceUpdater(client, { now: () => new Date(clock.now()), gated: { envFromMetadata: gate('InPlaceUpdateEnvFromMetadata') } }),
      });
    });
}

/** Owned pods map to their set; orphans may be adopted by a set in their namespace. */
function ownerOrOrphanToSets(sets: Informer<StatefulSet>): MapFunc<Pod> {
  const owner = forControllerOwner<Pod>('StatefulSet', 'apps.kruise.io');
  const orphans = orphanToSets(sets);
  return (pod) => [...owner(pod), ...orphans(pod)];
}
