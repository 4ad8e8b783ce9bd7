/**
 * Registration of the Deployment controller on a Manager. Deployments enqueue themselves;
 * ReplicaSets enqueue their controlling Deployment (orphans: every Deployment selecting them); a
 * deleted pod wakes a Recreate Deployment waiting for its old pods to be gone.
 */
import { Deployments, Pods, ReplicaSets } from '../../../api/resource-type.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import type { Controller } from '../../../runtime/controller.js';
import type { EventMapper, MapFunc, Request } from '../../../runtime/handlers.js';
import { controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { DeploymentReconciler } from './reconcile.js';
import type { Deployment, Pod, ReplicaSet } from '../../../api/core/index.js';

export { DeploymentReconciler } from './reconcile.js';

export interface DeploymentControllerOptions {
  /** Concurrent syncs (kube-controller-manager's --concurrent-deployment-syncs, default 5). */
  workers?: number;
}

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  deployments: Deployment;
  replicaSets: ReplicaSet;
  pods: Pod;
}

export function setupDeploymentController(mgr: Manager, options: DeploymentControllerOptions = {}): Controller {
  return mgr.controllerFor<Caches>('deployment', { workers: options.workers ?? 5, eventSource: 'deployment-controller' })
    .for('deployments', Deployments, { indexes: ['namespace'] })
    .watches('replicaSets', ReplicaSets, ({ informers }) => replicaSetToDeployments(informers.deployments), { indexes: ['namespace', 'controllerUid'] })
    .watches('pods', Pods, ({ informers: { replicaSets, deployments } }) => podDeletionToRecreateDeployment(replicaSets, deployments), { indexes: ['controllerUid'] })
    .complete(({ informers, client, expectations, events }) => new DeploymentReconciler({ ...informers, client, updates: expectations.updates, events }));
}

/** The controlling Deployment, or for an orphan every Deployment in its namespace that selects it. */
export function replicaSetToDeployments(deployments: Informer<Deployment>): MapFunc<ReplicaSet> {
  return (rs) => {
    const ref = controllerRef(rs);
    if (ref) return ref.kind === 'Deployment' ? [{ namespace: rs.metadata.namespace, name: ref.name }] : [];
    if (rs.metadata.deletionTimestamp) return [];
    const out: Request[] = [];
    for (const d of deployments.byIndex(IndexNames.namespace, rs.metadata.namespace ?? '')) {
      try {
        const selector = selectorFromLabelSelector(d.spec?.selector);
        if (!selector.empty && selector.matches(rs.metadata.labels)) out.push({ namespace: d.metadata.namespace, name: d.metadata.name! });
      } catch {
        // An invalid selector selects nothing; its own sync reports it.
      }
    }
    return out;
  };
}

/** A deleted pod wakes a Recreate Deployment waiting for its old pods to be gone. */
function podDeletionToRecreateDeployment(replicaSets: Informer<ReplicaSet>, deployments: Informer<Deployment>): EventMapper<Pod> {
  return { onDelete: (pod) => recreateDeploymentOf(pod, replicaSets, deployments) };
}

function recreateDeploymentOf(pod: Pod, replicaSets: Informer<ReplicaSet>, deployments: Informer<Deployment>): Request[] {
  const rsRef = controllerRef(pod);
  if (rsRef?.kind !== 'ReplicaSet') return [];
  const rs = replicaSets.get(pod.metadata.namespace, rsRef.name);
  const dRef = rs && rs.metadata.uid === rsRef.uid ? controllerRef(rs) : undefined;
  if (dRef?.kind !== 'Deployment') return [];
  const d = deployments.get(pod.metadata.namespace, dRef.name);
  return d?.spec?.strategy?.type === 'Recreate' ? [{ namespace: pod.metadata.namespace, name: dRef.name }] : [];
}
