/**
 * nodepodprobe-controller (docs/design/pod-probes.md §3): one NodePodProbe per Node, named after it
 * (none for virtual-kubelet nodes), deleted with the Node; entries of pods that are gone, finished
 * or replaced leave the spec; each live pod's probe states become its condition and marks, written
 * through pods/status (which keeps label and annotation changes).
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { VirtualKubeletNodeLabel, VirtualKubeletNodeLabelValue, type PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { NodePodProbes } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isPodActive } from '../../control/podutil/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import { markedPod, type ProbeLookup } from './pod-marks.js';

export interface NodePodProbeReconcilerDeps {
  client: Client;
  probes: Informer<NodePodProbe>;
  nodes: Informer<Node>;
  pods: Informer<Pod>;
  markers: Informer<PodProbeMarker>;
}

export const isVirtualKubelet = (node: Node): boolean => node.metadata.labels?.[VirtualKubeletNodeLabel] === VirtualKubeletNodeLabelValue;

export class NodePodProbeReconciler {
  constructor(private readonly d: NodePodProbeReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const node = this.d.nodes.get(undefined, req.name);
    const npp = this.d.probes.get(undefined, req.name);
    if (!node || node.metadata.deletionTimestamp) {
      if (npp) await this.d.client.delete(NodePodProbes, undefined, req.name).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
      return;
    }
    if (!npp) {
      if (isVirtualKubelet(node)) return;
      await this.d.client.create(NodePodProbes, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: req.name }, spec: {} })
        .catch((e: unknown) => { if (!isAlreadyExists(e)) throw e; });
      ctx.log.debug('Created NodePodProbe');
      return;
    }
    const live = await this.dropGonePods(npp);
    for (const status of npp.status?.podProbeStatuses ?? []) {
      const pod = live.get(status.uid);
      const next = pod && markedPod(pod, status, this.lookup);
      if (next) await this.d.client.updateStatus(Pods, next);
    }
  }

  /** The live pods of the spec by UID, after writing the spec without the others. */
  private async dropGonePods(npp: NodePodProbe): Promise<Map<string, Pod>> {
    const live = new Map<string, Pod>();
    for (const entry of npp.spec?.podProbes ?? []) {
      const pod = this.d.pods.get(entry.namespace, entry.name);
      if (pod && isPodActive(pod) && pod.metadata.uid === entry.uid) live.set(entry.uid, pod);
    }
    const kept = (npp.spec?.podProbes ?? []).filter((e) => live.has(e.uid));
    if (!deepEqual(kept, npp.spec?.podProbes ?? [])) {
      await this.d.client.update(NodePodProbes, { ...npp, spec: { ...npp.spec, podProbes: kept } });
    }
    return live;
  }

  private readonly lookup: ProbeLookup = (namespace, markerName, probeName) => {
    const marker = this.d.markers.get(namespace, markerName);
    if (!marker || marker.metadata.deletionTimestamp) return undefined;
    return marker.spec?.probes.find((p) => p.name === probeName);
  };
}
