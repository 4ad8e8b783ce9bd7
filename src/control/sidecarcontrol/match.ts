/**
 * Which SidecarSets select a pod (docs/design/sidecarset.md §2): the namespaceSelector against the
 * labels of the pod's Namespace (no selector: every namespace; a missing Namespace: none), then the
 * pod selector, where an empty or missing selector selects nothing.
 */
import type { Pod } from '../../api/core/index.js';
import type { ObjectMeta } from '../../api/meta.js';
import type { SidecarSet as SidecarSetKind } from '../../api/kruise/ops/sidecarset.js';

/** A stored SidecarSet (metadata always present). */
export type SidecarSet = SidecarSetKind & { metadata: ObjectMeta };
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';

export type SidecarSetMiss = 'selector' | 'namespace' | undefined;

function selects(selector: unknown, labels: Record<string, string> | undefined): boolean {
  try {
    const s = selectorFromLabelSelector(selector as MetaLabelSelector | undefined);
    return !s.empty && s.matches(labels ?? {});
  } catch {
    return false;
  }
}

/** Why `set` does not select `pod` (undefined: it does). `namespaceLabels` undefined = no such Namespace. */
export function sidecarSetMiss(set: SidecarSet, pod: Pod, namespaceLabels: Record<string, string> | undefined): SidecarSetMiss {
  const nsSelector = set.spec?.namespaceSelector;
  if (nsSelector && (!namespaceLabels || !selects(nsSelector, namespaceLabels))) return 'namespace';
  return selects(set.spec?.selector, pod.metadata.labels) ? undefined : 'selector';
}

export const sidecarSetSelects = (set: SidecarSet, pod: Pod, namespaceLabels: Record<string, string> | undefined): boolean =>
  sidecarSetMiss(set, pod, namespaceLabels) === undefined;

/** Whether `set` needs the Namespace's labels at all. */
export const needsNamespaceLabels = (set: SidecarSet): boolean => set.spec?.namespaceSelector !== undefined;
