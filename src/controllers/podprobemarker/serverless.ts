/**
 * Serverless pods (on virtual-kubelet nodes, EnablePodProbeMarkerOnServerless): no kruise-daemon
 * probes them, their platform reports the probe as the pod condition; the marker turns a condition
 * into the labels and annotations of the policy of the same state (True: Succeeded, False: Failed),
 * for probes that have both a condition type and a policy (docs/design/pod-probes.md §2). It only
 * adds marks, as upstream does, through a strategic merge patch of the metadata.
 */
import type { Pod } from '../../api/core/index.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { podCondition } from '../../control/podutil/index.js';
import { isNotFound } from '../../machinery/errors.js';

export async function markServerlessPods(client: Client, ppm: PodProbeMarker, pods: Pod[]): Promise<void> {
  const markers = (ppm.spec?.probes ?? []).filter((p) => p.podConditionType && (p.markerPolicy?.length ?? 0) > 0);
  if (markers.length === 0) return;
  for (const pod of pods) {
    const labels: Record<string, string> = {};
    const annotations: Record<string, string> = {};
    for (const probe of markers) {
      const condition = podCondition(pod, probe.podConditionType!);
      if (!condition) continue;
      const state = condition.status === 'True' ? 'Succeeded' : condition.status === 'False' ? 'Failed' : undefined;
      for (const policy of (probe.markerPolicy ?? []).filter((p) => p.state === state)) {
        Object.assign(labels, policy.labels);
        Object.assign(annotations, policy.annotations);
      }
    }
    const missing = (want: Record<string, string>, have: Record<string, string> | undefined) => Object.entries(want).some(([k, v]) => have?.[k] !== v);
    if (!missing(labels, pod.metadata.labels) && !missing(annotations, pod.metadata.annotations)) continue;
    await client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { labels, annotations } })
      .catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  }
}
