/**
 * Wires the pod garbage collector into a Manager: every pod is its own request; a node that goes
 * away wakes the pods bound to it (pods indexed by node name).
 */
import { Nodes, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { IndexNames } from '../../../runtime/indexers.js';
import type { Manager } from '../../../runtime/manager.js';
import { PodGCReconciler } from './reconcile.js';
import type { Node, Pod } from '../../../api/core/index.js';

export { orphanQuarantineMs, PodGCReconciler } from './reconcile.js';

export function setupPodGCController(mgr: Manager): Controller {
  return mgr.controllerFor<{ pods: Pod; nodes: Node }>('pod-garbage-collector', { workers: 2 })
    .for('pods', Pods, { indexes: ['nodeName'] })
    .watches('nodes', Nodes, ({ informers }) => ({
      onDelete: (node: Node) => informers.pods.byIndex(IndexNames.nodeName, node.metadata.name!)
        .map((p) => ({ namespace: p.metadata.namespace, name: p.metadata.name! })),
    }))
    .complete(({ informers, client, clock }) => new PodGCReconciler({ ...informers, client, clock }));
}
