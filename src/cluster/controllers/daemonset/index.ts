/**
 * Wires the DaemonSet controller into a Manager: informers for DaemonSets, Pods, Nodes and
 * ControllerRevisions; pod events meet expectations and wake the owning DaemonSet; a node that
 * appears, disappears or changes labels, taints or schedulability wakes every DaemonSet.
 */
import { ControllerRevisions, DaemonSets, Nodes, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { forAllWhenChanged } from '../../../runtime/handlers.js';
import type { Manager } from '../../../runtime/manager.js';
import { DaemonPodControl } from './pod-control.js';
import { DaemonSetReconciler } from './reconcile.js';
import type { Node, Pod, ControllerRevision, DaemonSet } from '../../../api/core/index.js';

export { DaemonSetReconciler } from './reconcile.js';
export { nodeShouldRunDaemonPod, defaultDaemonTolerations } from '../../../machinery/scheduling/index.js';

export interface DaemonSetControllerOptions {
  workers?: number;
}

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  daemonSets: DaemonSet;
  pods: Pod;
  nodes: Node;
  revisions: ControllerRevision;
}

export function setupDaemonSetController(mgr: Manager, options: DaemonSetControllerOptions = {}): Controller {
  return mgr.controllerFor<Caches>('daemonset', { workers: options.workers ?? 2, eventSource: 'daemonset-controller' })
    .for('daemonSets', DaemonSets)
    .owns('pods', Pods, { indexes: ['namespace'], expectations: 'scale' })
    .watches('nodes', Nodes, ({ informers }) => forAllWhenChanged(informers.daemonSets, placementFields))
    .owns('revisions', ControllerRevisions)
    .complete(({ informers, client, expectations: { scale: expectations, updates: statusWrites }, events }) => {
      const control = new DaemonPodControl({ client, pods: informers.pods, expectations, events });
      return new DaemonSetReconciler({ ...informers, client, control, expectations, statusWrites, events });
    });
}

/** The node fields placement depends on; heartbeats and other status churn are ignored. */
function placementFields(node: Node): unknown {
  return [node.metadata.labels, node.spec?.taints, node.spec?.unschedulable];
}
