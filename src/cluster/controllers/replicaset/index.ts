/**
 * Registration of the ReplicaSet controller on a Manager: informers for ReplicaSets and Pods with
 * the indexes it looks things up by, the pod handlers that meet expectations, and the mapping of
 * pod events to ReplicaSets (the controller owner, or for orphans every ReplicaSet that selects them).
 */
import { Pods, ReplicaSets } from '../../../api/resource-type.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import type { Controller } from '../../../runtime/controller.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import { requestKey, type MapFunc, type Request } from '../../../runtime/handlers.js';
import { controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { ReplicaSetReconciler } from './reconcile.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';

export { ReplicaSetReconciler } from './reconcile.js';

export interface ReplicaSetControllerOptions {
  /** Concurrent syncs (kube-controller-manager's --concurrent-replicaset-syncs, default 5). */
  workers?: number;
  /** Most pods created or deleted in one sync (upstream's BurstReplicas, 500). */
  burstReplicas?: number;
}

export function setupReplicaSetController(mgr: Manager, options: ReplicaSetControllerOptions = {}): Controller {
  const burstReplicas = options.burstReplicas ?? 500;
  if (burstReplicas < 1) throw new Error(`burstReplicas must be at least 1, got ${burstReplicas}`);
  const indexes = ['namespace', 'controllerUid'] as const;
  return mgr.controllerFor<{ replicaSets: ReplicaSet; pods: Pod }>('replicaset', { workers: options.workers ?? 5, eventSource: 'replicaset-controller' })
    .for('replicaSets', ReplicaSets, { indexes })
    .watches('pods', Pods, ({ informers }) => podToReplicaSets(informers.replicaSets), { indexes })
    .observes('pods', ({ expectations }) => observeOwnedPods(expectations.scale))
    .complete(({ informers, client, expectations, events }) => new ReplicaSetReconciler({
      ...informers, client, expectations: expectations.scale, events, burstReplicas,
    }));
}

function ownerKey(pod: Pod): string | undefined {
  const ref = controllerRef(pod);
  if (!ref || ref.kind !== 'ReplicaSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
  return requestKey({ namespace: pod.metadata.namespace, name: ref.name });
}

/** Pods appearing meet create expectations; pods vanishing or marked for deletion meet delete ones. */
export function observeOwnedPods(scale: ScaleExpectations) {
  const deleted = (pod: Pod) => {
    const key = ownerKey(pod);
    if (key) scale.observe(key, 'delete', pod.metadata.name!);
  };
  return {
    onAdd(pod: Pod) {
      const key = ownerKey(pod);
      if (!key) return;
      scale.observe(key, 'create', pod.metadata.name!);
      if (pod.metadata.deletionTimestamp) deleted(pod);
    },
    onUpdate(old: Pod, pod: Pod) {
      if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) deleted(pod);
    },
    onDelete: deleted,
  };
}

/** The controlling ReplicaSet, or for an orphan every ReplicaSet in its namespace that selects it. */
export function podToReplicaSets(replicaSets: Informer<ReplicaSet>): MapFunc<Pod> {
  return (pod) => {
    const ref = controllerRef(pod);
    if (ref) return ref.kind === 'ReplicaSet' ? [{ namespace: pod.metadata.namespace, name: ref.name }] : [];
    if (pod.metadata.deletionTimestamp) return [];
    const out: Request[] = [];
    for (const rs of replicaSets.byIndex(IndexNames.namespace, pod.metadata.namespace ?? '')) {
      try {
        const selector = selectorFromLabelSelector(rs.spec?.selector);
        if (!selector.empty && selector.matches(pod.metadata.labels)) out.push({ namespace: rs.metadata.namespace, name: rs.metadata.name! });
      } catch {
        // An invalid selector selects nothing; its own sync reports it.
      }
    }
    return out;
  };
}
