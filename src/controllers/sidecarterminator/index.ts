/**
 * Registration of sidecarterminator-controller (gates SidecarTerminator and KruiseDaemon;
 * docs/design/sidecarset.md §8): pods that have terminator sidecars and whose main containers are
 * done; Nodes are read for the virtual-kubelet label.
 */
import type { Node, Pod } from '../../api/core/index.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { SidecarTerminatorReconciler } from './reconcile.js';
import { isDue } from './rules.js';

export const sidecarTerminatorControllerName = 'sidecarterminator-controller';

export function setupSidecarTerminatorController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<{ pods: Pod; nodes: Node }>(sidecarTerminatorControllerName, { workers: options.workers ?? 3 })
    .for('pods', Pods, { when: isDue })
    .reads('nodes', Nodes)
    .complete(({ informers, client, events }) => new SidecarTerminatorReconciler({ client, pods: informers.pods, nodes: informers.nodes, events }));
}
