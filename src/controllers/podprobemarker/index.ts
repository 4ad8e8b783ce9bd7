/**
 * Registration of podprobemarker-controller (docs/design/pod-probes.md §2). A pod event enqueues the
 * markers of its namespace that select it (before or after the change) when something a marker
 * looks at changed: labels, node, IP, phase, Initialized, deletion, conditions (for serverless
 * marks). A new NodePodProbe (a node joined) enqueues every marker.
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { NodePodProbes, PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { PodProbeMarkerReconciler } from './reconcile.js';

export const podProbeMarkerControllerName = 'podprobemarker-controller';

const watched = (p: Pod) => [p.metadata.labels, p.spec?.nodeName, p.status?.podIP, p.status?.phase, p.metadata.deletionTimestamp, p.status?.conditions?.map((c) => [c.type, c.status])];

function markersOf(markers: Informer<PodProbeMarker>, ...pods: Pod[]): Request[] {
  const out = new Map<string, Request>();
  for (const pod of pods) {
    for (const m of markers.byIndex(IndexNames.namespace, pod.metadata.namespace ?? '')) {
      if (selectorFromLabelSelector(m.spec?.selector as MetaLabelSelector | undefined).matches(pod.metadata.labels)) {
        out.set(`${m.metadata.namespace}/${m.metadata.name}`, { namespace: m.metadata.namespace, name: m.metadata.name! });
      }
    }
  }
  return [...out.values()];
}

const podEvents = (markers: Informer<PodProbeMarker>): EventMapper<Pod> => ({
  onAdd: (pod) => markersOf(markers, pod),
  onUpdate: (old, pod) => (deepEqual(watched(old), watched(pod)) ? [] : markersOf(markers, old, pod)),
  onDelete: (pod) => markersOf(markers, pod),
});

export function setupPodProbeMarkerController(mgr: Manager, options: { gate: (name: string) => boolean; workers?: number }): Controller {
  return mgr.controllerFor<{ markers: PodProbeMarker; pods: Pod; nodes: Node; probes: NodePodProbe }>(podProbeMarkerControllerName, { workers: options.workers ?? 3 })
    .for('markers', PodProbeMarkers, { indexes: ['namespace'] })
    .watches('pods', Pods, ({ informers }) => podEvents(informers.markers), { indexes: ['namespace'] })
    .reads('nodes', Nodes)
    .watches('probes', NodePodProbes, ({ informers }) => ({
      onAdd: () => informers.markers.list().map((m) => ({ namespace: m.metadata.namespace, name: m.metadata.name! })),
    }))
    .complete(({ informers, client }) => new PodProbeMarkerReconciler({ client, ...informers, gate: options.gate }));
}
