/**
 * podprobemarker-controller (docs/design/pod-probes.md §2): keeps finalizer
 * `kruise.io/node-pod-probe-cleanup` on a live marker; writes its probes into the NodePodProbe of
 * every node running a pod it matches (and out of every other entry); on deletion takes them out of
 * every NodePodProbe, then releases the finalizer; marks serverless pods from their conditions when
 * EnablePodProbeMarkerOnServerless is on; reports matchedPods and observedGeneration.
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { NodePodProbeCleanupFinalizer, type PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { PodProbeMarkers } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import { matchingPods } from './matching-pods.js';
import { desiredNodeSpec } from './node-probes.js';
import { markServerlessPods } from './serverless.js';
import { updateNodeProbes } from './write-node-probes.js';

export interface PodProbeMarkerReconcilerDeps {
  client: Client;
  markers: Informer<PodProbeMarker>;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  probes: Informer<NodePodProbe>;
  gate: (name: string) => boolean;
}

export class PodProbeMarkerReconciler {
  constructor(private readonly d: PodProbeMarkerReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const ppm = this.d.markers.get(req.namespace, req.name);
    if (!ppm) return;
    const finalizers = ppm.metadata.finalizers ?? [];
    if (ppm.metadata.deletionTimestamp) {
      if (!finalizers.includes(NodePodProbeCleanupFinalizer)) return;
      await this.writeNodeProbes(ppm, []);
      await this.d.client.update(PodProbeMarkers, { ...ppm, metadata: { ...ppm.metadata, finalizers: finalizers.filter((f) => f !== NodePodProbeCleanupFinalizer) } });
      ctx.log.debug('Removed the probes from the NodePodProbes and the finalizer');
      return;
    }
    let current = ppm;
    if (!finalizers.includes(NodePodProbeCleanupFinalizer)) {
      current = await this.d.client.update(PodProbeMarkers, { ...ppm, metadata: { ...ppm.metadata, finalizers: [...finalizers, NodePodProbeCleanupFinalizer] } });
    }
    const pods = this.d.pods.byIndex(IndexNames.namespace, req.namespace!);
    const matched = matchingPods(current, pods, (name) => this.d.nodes.get(undefined, name));
    if (this.d.gate('EnablePodProbeMarkerOnServerless')) await markServerlessPods(this.d.client, current, matched.serverless);
    await this.writeNodeProbes(current, matched.normal);
    await this.writeStatus(current, matched.normal.length + matched.serverless.length);
  }

  /** Every NodePodProbe: the entries of `matched` pods carry the marker's probes, no other entry does. */
  private async writeNodeProbes(ppm: PodProbeMarker, matched: Pod[]): Promise<void> {
    for (const npp of this.d.probes.list()) {
      const onNode = matched.filter((p) => p.spec.nodeName === npp.metadata.name);
      await updateNodeProbes(this.d.client, npp, (spec) => desiredNodeSpec(spec, ppm, onNode));
    }
  }

  private async writeStatus(ppm: PodProbeMarker, matchedPods: number): Promise<void> {
    const generation = ppm.metadata.generation ?? 0;
    if (ppm.status?.observedGeneration === generation && ppm.status.matchedPods === matchedPods) return;
    await this.d.client.updateStatus(PodProbeMarkers, { ...ppm, status: { ...ppm.status, observedGeneration: generation, matchedPods } });
  }
}
