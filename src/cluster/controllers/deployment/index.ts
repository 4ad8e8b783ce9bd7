/**
 * Registration of the Deployment controller on a Manager. Deployments enqueue themselves;
 * ReplicaSets enqueue their controlling Deployment (orphans: every Deployment selecting them); a
 * deleted pod wakes a Recreate Deployment waiting for its old pods to be gone.
 */
import { Deployments, Pods, ReplicaSets } from '../../../api/resource-type.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import type { Controller } from '../../../runtime/controller.js';
import { forSelf, type MapFunc, type Request } from '../../../runtime/handlers.js';
import { byControllerUid, byNamespace, controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { DeploymentReconciler } from './reconcile.js';
import type { Deployment, Pod, ReplicaSet } from '../../../api/core/index.js';

export { DeploymentReconciler } from './reconcile.js';

export interface DeploymentControllerOptions {
  /** Concurrent syncs (kube-controller-manager's --concurrent-deployment-syncs, default 5). */
  workers?: number;
}

export function setupDeploymentController(mgr: Manager, options: DeploymentControllerOptions = {}): Controller {
  const deployments = mgr.informerFor<Deployment>(Deployments);
  const replicaSets = mgr.informerFor<ReplicaSet>(ReplicaSets);
  const pods = mgr.informerFor<Pod>(Pods);
  deployments.addIndexer(IndexNames.namespace, byNamespace);
  replicaSets.addIndexer(IndexNames.namespace, byNamespace);
  replicaSets.addIndexer(IndexNames.controllerUid, byControllerUid);
  pods.addIndexer(IndexNames.controllerUid, byControllerUid);
  const { updates } = mgr.newExpectations('deployment');
  const reconciler = new DeploymentReconciler({
    client: mgr.client, deployments, replicaSets, pods, updates, events: mgr.eventRecorder('deployment-controller'),
  });
  const controller = mgr.newController({ name: 'deployment', reconciler, workers: options.workers ?? 5 })
    .watches(deployments, forSelf())
    .watches(replicaSets, replicaSetToDeployments(deployments));
  pods.addEventHandler({
    onDelete: (pod) => {
      for (const req of recreateDeploymentOf(pod, replicaSets, deployments)) controller.enqueue(req);
    },
  });
  return controller;
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

function recreateDeploymentOf(pod: Pod, replicaSets: Informer<ReplicaSet>, deployments: Informer<Deployment>): Request[] {
  const rsRef = controllerRef(pod);
  if (rsRef?.kind !== 'ReplicaSet') return [];
  const rs = replicaSets.get(pod.metadata.namespace, rsRef.name);
  const dRef = rs && rs.metadata.uid === rsRef.uid ? controllerRef(rs) : undefined;
  if (dRef?.kind !== 'Deployment') return [];
  const d = deployments.get(pod.metadata.namespace, dRef.name);
  return d?.spec?.strategy?.type === 'Recreate' ? [{ namespace: pod.metadata.namespace, name: dRef.name }] : [];
}
