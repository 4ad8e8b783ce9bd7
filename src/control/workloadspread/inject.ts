/**
 * What a subset does to a pod at admission (docs/design/workloadspread.md §4): tolerations and
 * preferred terms appended, the required term merged into every existing required term (or made
 * the only one), the subset patch applied as a strategic merge over the whole pod (a changed
 * priorityClassName clears spec.priority), and the matched-workloadspread annotation set.
 */
import type { NodeSelectorTerm, Pod, PreferredSchedulingTerm, Toleration } from '../../api/core/index.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { builtinPatchSchema } from '../../machinery/patch/builtin-patch-meta.js';
import { formatInjectedSpread, MatchedWorkloadSpreadAnnotation, type InjectedSpread } from './keys.js';
import type { Subset } from './subsets.js';

export function applySubsetPlacement(pod: Pod, subset: Subset): void {
  const spec = pod.spec;
  const tolerations = (subset.tolerations ?? []) as unknown as Toleration[];
  if (tolerations.length > 0) spec.tolerations = [...(spec.tolerations ?? []), ...tolerations];
  const required = subset.requiredNodeSelector as unknown as NodeSelectorTerm | undefined;
  const preferred = (subset.preferredNodeSelector ?? []) as unknown as PreferredSchedulingTerm[];
  if (!required && preferred.length === 0) return;
  const nodeAffinity = ((spec.affinity ??= {}).nodeAffinity ??= {});
  if (preferred.length > 0) {
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []), ...preferred];
  }
  if (!required) return;
  const terms = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) {
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [structuredClone(required)] };
    return;
  }
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: terms.map((t) => ({
      ...t,
      ...(required.matchExpressions?.length && { matchExpressions: [...(t.matchExpressions ?? []), ...required.matchExpressions] }),
      ...(required.matchFields?.length && { matchFields: [...(t.matchFields ?? []), ...required.matchFields] }),
    })),
  };
}

/** The pod with the subset patch merged in (a new object). */
export function applySubsetPatch(pod: Pod, subset: Subset): Pod {
  if (subset.patch === undefined || subset.patch === null) return pod;
  const patched = applyStrategicMergePatch(pod, subset.patch, builtinPatchSchema('', 'Pod')) as Pod;
  if (patched.spec?.priorityClassName !== pod.spec?.priorityClassName) delete patched.spec.priority;
  return patched;
}

/** Places the pod in the subset; returns the pod to admit (the patch may replace the object). */
export function injectSubset(pod: Pod, subset: Subset, matched: InjectedSpread): Pod {
  applySubsetPlacement(pod, subset);
  const patched = applySubsetPatch(pod, subset);
  (patched.metadata.annotations ??= {})[MatchedWorkloadSpreadAnnotation] = formatInjectedSpread(matched);
  return patched;
}
