/**
 * Pod mutation step `probe-marker` (gate EnablePodProbeMarkerOnServerless; docs/design/pod-probes.md
 * §2): a serverless platform runs a pod's probes itself, so a new pod carries the probes of the
 * PodProbeMarkers of its namespace that select it, in annotation `kruise.io/podprobe` (a JSON list
 * without marker policies) and the markers' sorted names in `kruise.io/podprobemarker-list`. Only
 * probes with a condition type of a container the pod has (or a native sidecar) are taken; the
 * first one wins per condition type and per container/probe name. An empty selector matches nothing.
 */
import { PodProbeAnnotation, PodProbeMarkerListAnnotation, type PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { PodMutationStep } from './step.js';

export const probeMarkerStep: PodMutationStep = {
  name: 'probe-marker',
  enabled: (gate) => gate('EnablePodProbeMarkerOnServerless'),
  async mutate(pod, input) {
    if (input.request.operation !== 'CREATE' || input.request.subResource) return;
    const markers = (await input.client.list<PodProbeMarker>(PodProbeMarkers, { namespace: input.request.namespace ?? pod.metadata.namespace })).items;
    const containers = new Set([
      ...pod.spec.containers.map((c) => c.name),
      ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
    ]);
    const names = new Set<string>();
    const keys = new Set<string>();
    const conditions = new Set<string>();
    const probes: unknown[] = [];
    for (const marker of markers) {
      const selector = (() => { try { return selectorFromLabelSelector(marker.spec?.selector as MetaLabelSelector | undefined); } catch { return undefined; } })();
      if (!selector || selector.empty || !selector.matches(pod.metadata.labels)) continue;
      for (const probe of marker.spec?.probes ?? []) {
        const key = `${probe.containerName}/${probe.name}`;
        const type = probe.podConditionType;
        if (!type || conditions.has(type) || keys.has(key) || !containers.has(probe.containerName)) continue;
        const { markerPolicy: _dropped, ...withoutPolicy } = probe;
        probes.push(withoutPolicy);
        keys.add(key);
        conditions.add(type);
        names.add(marker.metadata.name!);
      }
    }
    if (probes.length === 0) return;
    const annotations = (pod.metadata.annotations ??= {});
    annotations[PodProbeAnnotation] = JSON.stringify(probes);
    annotations[PodProbeMarkerListAnnotation] = [...names].sort().join(',');
  },
};
