/**
 * Wires the StatefulSet controller into a Manager: informers for StatefulSets, Pods, ControllerRevisions
 * and PersistentVolumeClaims, expectations met from pod events, and pod events mapped to the owning
 * set (or, for orphans, to every set in the namespace that selects them).
 */
import type { KObject } from '../../../api/meta.js';
import { ControllerRevisions, PersistentVolumeClaims, Pods, StatefulSets } from '../../../api/resource-type.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import type { Controller } from '../../../runtime/controller.js';
import { forControllerOwner, type MapFunc, type Request } from '../../../runtime/handlers.js';
import { controllerRef, IndexNames } from '../../../runtime/indexers.js';
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

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  sets: StatefulSet;
  pods: Pod;
  revisions: ControllerRevision;
  claims: KObject;
}

export function setupStatefulSetController(mgr: Manager, options: StatefulSetControllerOptions = {}): Controller {
  return mgr.controllerFor<Caches>('statefulset', { workers: options.workers ?? 5, eventSource: 'statefulset-controller' })
    .for('sets', StatefulSets, { indexes: ['namespace'] })
    .watches('pods', Pods, ({ informers }) => podToSets(informers.sets), { indexes: ['namespace', 'controllerUid'], expectations: 'scale' })
    .owns('revisions', ControllerRevisions)
    .reads('claims', PersistentVolumeClaims)
    .complete(({ informers, client, expectations: { scale: expectations, updates: statusWrites }, events }) => {
      const control = new StatefulPodControl({ client, claims: informers.claims, events, expectations });
      return new StatefulSetReconciler({ ...informers, client, control, expectations, statusWrites, events });
    });
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
