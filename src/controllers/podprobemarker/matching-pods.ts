/**
 * The pods a PodProbeMarker probes (docs/design/pod-probes.md §2): in its namespace, selected, active,
 * Initialized, bound to a node that exists; split into pods of ordinary nodes (probed by their
 * node's kruise-daemon) and of virtual-kubelet nodes (serverless).
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { VirtualKubeletNodeLabel, VirtualKubeletNodeLabelValue } from '../../api/kruise/ops/podprobemarker.js';
import { isPodActive, podCondition } from '../../control/podutil/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';

export interface MatchedPods {
  normal: Pod[];
  serverless: Pod[];
}

export function matchingPods(ppm: PodProbeMarker, podsInNamespace: Pod[], node: (name: string) => Node | undefined): MatchedPods {
  const selector = selectorFromLabelSelector(ppm.spec?.selector as MetaLabelSelector | undefined);
  const out: MatchedPods = { normal: [], serverless: [] };
  for (const pod of podsInNamespace) {
    if (!selector.matches(pod.metadata.labels) || !isPodActive(pod) || podCondition(pod, 'Initialized')?.status !== 'True') continue;
    const n = pod.spec.nodeName ? node(pod.spec.nodeName) : undefined;
    if (!n) continue;
    (n.metadata.labels?.[VirtualKubeletNodeLabel] === VirtualKubeletNodeLabelValue ? out.serverless : out.normal).push(pod);
  }
  return out;
}
