/**
 * The body of the `InPlaceUpdateReady=True` write for a pod that lacks the condition: a
 * strategic-merge patch of pods/status with the condition and whatever labels and annotations the
 * caller's onReady changed (kube-apiserver takes metadata through pods/status), or undefined when
 * onReady changed another condition too, which a patch could only merge into the old entry: the
 * pod is then written whole, for the observed version. Pure.
 */
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { podCondition } from './conditions.js';
import type { Pod } from '../../api/core/index.js';

/** Keys set or changed in `after` with their values, keys gone from it as null (a strategic-merge delete). */
function mapDiff(before: Record<string, string> = {}, after: Record<string, string> = {}): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(after)) if (before[k] !== v) out[k] = v;
  for (const k of Object.keys(before)) if (!(k in after)) out[k] = null;
  return Object.keys(out).length ? out : undefined;
}

const otherConditions = (pod: Pod) => (pod.status?.conditions ?? []).filter((c) => c.type !== InPlaceUpdateReadyCondition);

/** Patch from `observed` to `next` (observed plus the condition and onReady's changes); undefined: write `next` whole. */
export function readyStatusPatch(observed: Pod, next: Pod): object | undefined {
  if (!deepEqual(otherConditions(observed), otherConditions(next))) return undefined;
  if (!deepEqual(observed.metadata.finalizers ?? [], next.metadata.finalizers ?? [])) return undefined;
  const labels = mapDiff(observed.metadata.labels, next.metadata.labels);
  const annotations = mapDiff(observed.metadata.annotations, next.metadata.annotations);
  const metadata = labels || annotations ? { ...(labels && { labels }), ...(annotations && { annotations }) } : undefined;
  return { ...(metadata && { metadata }), status: { conditions: [podCondition(next, InPlaceUpdateReadyCondition)] } };
}
