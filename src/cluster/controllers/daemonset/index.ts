/**
 * Wires the DaemonSet controller into a Manager: informers for DaemonSets, Pods, Nodes and
 * ControllerRevisions; pod events meet expectations and wake the owning DaemonSet; a node that
 * appears, disappears or changes labels, taints or schedulability wakes every DaemonSet.
 */
import { observeOwnedScaleExpectations } from '../../../runtime/observe-expectations.js';
import { ControllerRevisions, DaemonSets, Nodes, Pods } from '../../../api/resource-type.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import type { Controller } from '../../../runtime/controller.js';
import { forControllerOwner, forSelf } from '../../../runtime/handlers.js';
import { byControllerUid, byNamespace, IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { DaemonPodControl } from './pod-control.js';
import { DaemonSetReconciler } from './reconcile.js';
import type { Node, Pod, ControllerRevision, DaemonSet } from '../../../api/core/index.js';

export { DaemonSetReconciler } from './reconcile.js';
export { nodeShouldRunDaemonPod, defaultDaemonTolerations } from '../../../machinery/scheduling/index.js';

export interface DaemonSetControllerOptions {
  workers?: number;
}

export function setupDaemonSetController(mgr: Manager, options: DaemonSetControllerOptions = {}): Controller {
  const daemonSets = mgr.informerFor<DaemonSet>(DaemonSets);
  const pods = mgr.informerFor<Pod>(Pods);
  const nodes = mgr.informerFor<Node>(Nodes);
  const revisions = mgr.informerFor<ControllerRevision>(ControllerRevisions);
  pods.addIndexer(IndexNames.namespace, byNamespace);
  pods.addIndexer(IndexNames.controllerUid, byControllerUid);
  revisions.addIndexer(IndexNames.controllerUid, byControllerUid);
  const { scale: expectations, updates: statusWrites } = mgr.newExpectations('daemonset');
  const events = mgr.eventRecorder('daemonset-controller');
  observeOwnedScaleExpectations(pods, expectations, 'DaemonSet');
  const control = new DaemonPodControl({ client: mgr.client, pods, expectations, events });
  const reconciler = new DaemonSetReconciler({ client: mgr.client, daemonSets, pods, nodes, revisions, control, expectations, statusWrites, events });
  const controller = mgr.newController({ name: 'daemonset', reconciler, workers: options.workers ?? 2 })
    .watches(daemonSets, forSelf())
    .watches(pods, forControllerOwner('DaemonSet', 'apps'))
    .watches(revisions, forControllerOwner('DaemonSet', 'apps'));
  wakeOnNodeChanges(nodes, daemonSets, controller);
  return controller;
}

/** The node fields placement depends on; heartbeats and other status churn are ignored. */
function placementFields(node: Node): unknown {
  return [node.metadata.labels, node.spec?.taints, node.spec?.unschedulable];
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
