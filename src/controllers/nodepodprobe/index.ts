/**
 * Registration of nodepodprobe-controller (docs/design/pod-probes.md §3): requests are node names.
 * NodePodProbe events enqueue themselves; Node events their node; a pod that is deleted or finishes
 * enqueues the node it was bound to, so its entry leaves the spec.
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { NodePodProbes, PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { isPodActive } from '../../control/podutil/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper } from '../../runtime/handlers.js';
import type { Manager } from '../../runtime/manager.js';
import { NodePodProbeReconciler } from './reconcile.js';

export const nodePodProbeControllerName = 'nodepodprobe-controller';

const nodeOf = (pod: Pod) => (pod.spec?.nodeName ? [{ name: pod.spec.nodeName }] : []);

/** Pods matter here only when they leave: deleted, or no longer active. */
const podLeaves: EventMapper<Pod> = {
  onUpdate: (old, pod) => (isPodActive(old) && !isPodActive(pod) ? nodeOf(pod) : []),
  onDelete: nodeOf,
};

export function setupNodePodProbeController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<{ probes: NodePodProbe; nodes: Node; pods: Pod; markers: PodProbeMarker }>(nodePodProbeControllerName, { workers: options.workers ?? 3 })
    .for('probes', NodePodProbes)
    .watches('nodes', Nodes, () => (node) => [{ name: node.metadata.name! }])
    .watches('pods', Pods, () => podLeaves)
    .reads('markers', PodProbeMarkers)
    .complete(({ informers, client }) => new NodePodProbeReconciler({ client, ...informers }));
}
