/**
 * Which subset each pod of the workload is in (docs/design/workloadspread.md §6): pods this
 * WorkloadSpread annotated go to their subset (the fake bucket when it was removed); scheduled
 * pods without the annotation are adopted into the best subset whose required term and
 * tolerations accept their node (preferred-term score ×100, patch already satisfied +10, room +1).
 */
import type { Node, NodeSelectorTerm, Pod, PreferredSchedulingTerm, Toleration } from '../../api/core/index.js';
import { IgnorePatchExistingPodsAnnotation } from '../../api/kruise/workloads/workload-spread.js';
import {
  applySubsetPatch, FakeSubsetName, injectedSpreadOf, maxReplicasOf, type Spread, type Subset,
} from '../../control/workloadspread/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { firstUntoleratedTaint, preferredNodeTerms, requiredNodeMatcher } from '../../machinery/scheduling/index.js';

export interface Adoption { pod: Pod; subset: string; labels: Record<string, string>; annotations: Record<string, string> }

export interface Placement {
  /** Pods by subset name (FakeSubsetName for pods in no subset). */
  bySubset: Map<string, Pod[]>;
  adoptions: Adoption[];
}

function nodeAccepts(subset: Subset, pod: Pod, node: Node): boolean {
  const required = subset.requiredNodeSelector as unknown as NodeSelectorTerm | undefined;
  const labels = node.metadata.labels ?? {};
  if (required && !requiredNodeMatcher({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [required] } } } })(labels, node.metadata.name!)) return false;
  const tolerations = [...(pod.spec.tolerations ?? []), ...((subset.tolerations ?? []) as unknown as Toleration[])];
  return !firstUntoleratedTaint(node.spec?.taints, tolerations);
}

function preferredScore(subset: Subset, node: Node): number {
  const preferred = (subset.preferredNodeSelector ?? []) as unknown as PreferredSchedulingTerm[];
  const terms = preferredNodeTerms({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } } });
  return terms.reduce((sum, t) => sum + (t.matches(node.metadata.labels ?? {}, node.metadata.name!) ? t.weight : 0), 0);
}

function patchMetadata(subset: Subset): { labels: Record<string, string>; annotations: Record<string, string> } {
  const meta = (subset.patch as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } } | undefined)?.metadata;
  return { labels: { ...meta?.labels }, annotations: { ...meta?.annotations } };
}

export function placePods(ws: Spread, pods: readonly Pod[], replicas: number, nodeOf: (name: string) => Node | undefined): Placement {
  const bySubset = new Map<string, Pod[]>([...ws.spec.subsets.map((s) => [s.name, [] as Pod[]] as const), [FakeSubsetName, []]]);
  const adoptions: Adoption[] = [];
  const strays: Pod[] = [];
  for (const pod of pods) {
    const injected = injectedSpreadOf(pod);
    if (injected && injected.name === ws.metadata.name) (bySubset.get(injected.subset) ?? bySubset.get(FakeSubsetName)!).push(pod);
    else strays.push(pod);
  }
  const copyMetadata = ws.metadata.annotations?.[IgnorePatchExistingPodsAnnotation] !== 'true';
  for (const pod of strays) {
    const node = pod.spec.nodeName ? nodeOf(pod.spec.nodeName) : undefined;
    let best: { subset: Subset; score: number } | undefined;
    for (const subset of node ? ws.spec.subsets : []) {
      if (!nodeAccepts(subset, pod, node!)) continue;
      const max = maxReplicasOf(subset, replicas);
      const room = max < 0 || bySubset.get(subset.name)!.length < max;
      const satisfied = deepEqual(applySubsetPatch(pod, subset), pod);
      const score = preferredScore(subset, node!) * 100 + (satisfied ? 10 : 0) + (room ? 1 : 0);
      if (!best || score > best.score) best = { subset, score };
    }
    if (!best) {
      bySubset.get(FakeSubsetName)!.push(pod);
      continue;
    }
    bySubset.get(best.subset.name)!.push(pod);
    adoptions.push({ pod, subset: best.subset.name, ...(copyMetadata ? patchMetadata(best.subset) : { labels: {}, annotations: {} }) });
  }
  return { bySubset, adoptions };
}
