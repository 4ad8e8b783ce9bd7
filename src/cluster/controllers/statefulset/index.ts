/**
 * Wires the StatefulSet controller into a Manager: informers for StatefulSets, Pods, ControllerRevisions
 * and PersistentVolumeClaims, expectations met from pod events, and pod events mapped to the owning
 * set (or, for orphans, to every set in the namespace that selects them).
 */
import { observeOwnedScaleExpectations } from '../../../runtime/observe-expectations.js';
import type { KObject } from '../../../api/meta.js';
import { ControllerRevisions, PersistentVolumeClaims, Pods, StatefulSets } from '../../../api/resource-type.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import type { Controller } from '../../../runtime/controller.js';
import { forControllerOwner, forSelf, type MapFunc, type Request } from '../../../runtime/handlers.js';
import { byControllerUid, byNamespace, controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { StatefulPodControl } from './pod-control.js';
import { StatefulSetReconciler } from './reconcile.js';
import type { Pod, ControllerRevision, StatefulSet } from '../../../api/core/index.js';

export { StatefulSetReconciler } from './reconcile.js';
export { planStatefulSet, type Plan, type Step } from './plan.js';

export interface StatefulSetControllerOptions {
  workers?: number;
}

export function setupStatefulSetController(mgr: Manager, options: StatefulSetControllerOptions = {}): Controller {
  const sets = mgr.informerFor<StatefulSet>(StatefulSets);
  const pods = mgr.informerFor<Pod>(Pods);
  const revisions = mgr.informerFor<ControllerRevision>(ControllerRevisions);
  const claims = mgr.informerFor<KObject>(PersistentVolumeClaims);
  sets.addIndexer(IndexNames.namespace, byNamespace);
  pods.addIndexer(IndexNames.namespace, byNamespace);
  pods.addIndexer(IndexNames.controllerUid, byControllerUid);
  revisions.addIndexer(IndexNames.controllerUid, byControllerUid);
  const { scale: expectations, updates: statusWrites } = mgr.newExpectations('statefulset');
  const events = mgr.eventRecorder('statefulset-controller');
  observeOwnedScaleExpectations(pods, expectations, 'StatefulSet');
  const control = new StatefulPodControl({ client: mgr.client, claims, events, expectations });
  const reconciler = new StatefulSetReconciler({ client: mgr.client, sets, pods, revisions, control, expectations, statusWrites, events });
  return mgr.newController({ name: 'statefulset', reconciler, workers: options.workers ?? 5 })
    .watches(sets, forSelf())
    .watches(pods, podToSets(sets))
    .watches(revisions, forControllerOwner('StatefulSet', 'apps'));
}

/** The controlling set, or for an orphan every set in its namespace whose selector matches it. */
function podToSets(sets: Informer<StatefulSet>): MapFunc<Pod> {
  const owner = forControllerOwner<Pod>('StatefulSet', 'apps');
  return (pod) => {
    if (controllerRef(pod)) return owner(pod);
    if (pod.metadata.deletionTimestamp) return [];
    const out: Request[] = [];
    for (const set of sets.byIndex(IndexNames.namespace, pod.metadata.namespace ?? '')) {
      try {
        const selector = selectorFromLabelSelector(set.spec?.selector);
        if (!selector.empty && selector.matches(pod.metadata.labels)) out.push({ namespace: set.metadata.namespace, name: set.metadata.name! });
      } catch {
        // An invalid selector selects nothing; the set's own sync reports it.
      }
    }
    return out;
  };
}
