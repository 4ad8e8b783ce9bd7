/**
 * Registration of the Advanced DaemonSet controller (`daemonset-controller`) on a Manager:
 * informers for DaemonSets, pods (by namespace and controller), nodes and ControllerRevisions; pod
 * events meet the expectations and wake the owning DaemonSet; a node that appears, goes, or changes
 * labels, taints, schedulability or true conditions wakes every DaemonSet.
 */
import { ControllerRevisions, Nodes, Pods } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Controller } from '../../runtime/controller.js';
import { forControllerOwner, forSelf } from '../../runtime/handlers.js';
import { byControllerUid, byNamespace, IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { observeOwnedScaleExpectations } from '../../runtime/observe-expectations.js';
import { FailedPodBackoff, type FailedBackoffOptions } from './failed-backoff.js';
import { AdvancedDaemonSetReconciler } from './reconcile.js';
import { AdvancedDaemonSets, type DaemonSet } from './types.js';
import type { ControllerRevision, Node, Pod } from '../../api/core/index.js';

export { AdvancedDaemonSetReconciler, type DaemonSetReconcilerDeps } from './reconcile.js';
export { AdvancedDaemonSets, type DaemonSet, type DaemonSetStatus } from './types.js';
export { computeStatus } from './status.js';
export { planManage } from './manage-plan.js';
export { planRollingUpdate } from './rolling-update.js';
export { nodesToUpdate } from './rollout-nodes.js';

export const advancedDaemonSetControllerName = 'daemonset-controller';

export interface AdvancedDaemonSetControllerOptions {
  /** Concurrent reconciles (default 3). */
  workers?: number;
  /** Back-off of Failed pod deletion per node (default 1 s doubling to 15 min). */
  failedPodBackoff?: FailedBackoffOptions;
}

export function setupAdvancedDaemonSetController(mgr: Manager, options: AdvancedDaemonSetControllerOptions = {}): Controller {
  const daemonSets = mgr.informerFor<DaemonSet>(AdvancedDaemonSets);
  const pods = mgr.informerFor<Pod>(Pods);
  const nodes = mgr.informerFor<Node>(Nodes);
  const revisions = mgr.informerFor<ControllerRevision>(ControllerRevisions);
  pods.addIndexer(IndexNames.namespace, byNamespace);
  pods.addIndexer(IndexNames.controllerUid, byControllerUid);
  revisions.addIndexer(IndexNames.controllerUid, byControllerUid);
  const { scale, updates } = mgr.newExpectations('daemonset');
  observeOwnedScaleExpectations(pods, scale, 'DaemonSet');
  pods.addEventHandler({ onDelete: (pod) => updates.delete(`${pod.metadata.namespace}/${pod.metadata.name}`) });
  const reconciler = new AdvancedDaemonSetReconciler({
    client: mgr.client, daemonSets, pods, nodes, revisions, expectations: scale, podUpdates: updates,
    events: mgr.eventRecorder(advancedDaemonSetControllerName), backoff: new FailedPodBackoff(options.failedPodBackoff),
  });
  const owner = forControllerOwner('DaemonSet', 'apps.kruise.io');
  const controller = mgr.newController({ name: advancedDaemonSetControllerName, reconciler, workers: options.workers ?? 3 })
    .watches(daemonSets, forSelf())
    .watches(pods, owner)
    .watches(revisions, owner);
  wakeOnNodeChanges(nodes, daemonSets, controller);
  return controller;
}

/** The node fields placement depends on; heartbeats and other status churn are ignored. */
function placementFields(node: Node): unknown {
  const trueConditions = (node.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).sort();
  return [node.metadata.labels, node.spec?.taints, node.spec?.unschedulable, trueConditions];
}

function wakeOnNodeChanges(nodes: Informer<Node>, daemonSets: Informer<DaemonSet>, controller: Controller): void {
  const wakeAll = () => {
    for (const ds of daemonSets.list()) controller.enqueue({ namespace: ds.metadata.namespace, name: ds.metadata.name! });
  };
  nodes.addEventHandler({
    onAdd: wakeAll,
    onUpdate: (old, node) => { if (!deepEqual(placementFields(old), placementFields(node))) wakeAll(); },
    onDelete: wakeAll,
  });
}
