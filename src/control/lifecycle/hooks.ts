/**
 * Lifecycle hooks on pods (docs/design/inplace-update.md §9, upstream pkg/util/lifecycle): the state label, whether a
 * hook's labels/finalizers are on a pod, and the strategic-merge patch that moves a pod to a state.
 */
import { LifecycleState, LifecycleStateLabel, LifecycleTimestampAnnotation } from '../../api/kruise/workloads/labels.js';
import type { Lifecycle } from '../../api/kruise/workloads/schema-parts.js';
import type { Pod } from '../../api/core/index.js';
import { rfc3339 } from '../../machinery/time.js';

export { LifecycleState, LifecycleStateLabel, LifecycleTimestampAnnotation };
export type { Lifecycle };
export type LifecycleHook = NonNullable<Lifecycle['preDelete']>;

/** The pod's state label; '' when absent (which counts as Normal). */
export function podLifecycleState(pod: Pod): LifecycleState | '' {
  return (pod.metadata.labels?.[LifecycleStateLabel] ?? '') as LifecycleState | '';
}

/** A missing label counts as Normal; every other state makes the pod unavailable. */
export function isPodAvailableByLifecycle(pod: Pod): boolean {
  const state = podLifecycleState(pod);
  return state === '' || state === LifecycleState.Normal;
}

/** The pod carries any of the hook's finalizers or labels (with the listed value). */
export function isHooked(pod: Pod, hook: LifecycleHook | undefined): boolean {
  if (!hook) return false;
  const finalizers = pod.metadata.finalizers ?? [];
  const labels = pod.metadata.labels ?? {};
  return (hook.finalizersHandler ?? []).some((f) => finalizers.includes(f))
    || Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => (labels[k] ?? '') === v);
}

/** The pod carries all of the hook's finalizers and labels; false without a hook. */
export function isAllHooked(pod: Pod, hook: LifecycleHook | undefined): boolean {
  if (!hook) return false;
  const finalizers = pod.metadata.finalizers ?? [];
  const labels = pod.metadata.labels ?? {};
  return (hook.finalizersHandler ?? []).every((f) => finalizers.includes(f))
    && Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => (labels[k] ?? '') === v);
}

/** Any hook asks for the pod to be marked not-ready (this also forbids cancelling PreparingDelete). */
export function isRequiredPodNotReady(lifecycle: Lifecycle | undefined): boolean {
  return !!(lifecycle?.preDelete?.markPodNotReady || lifecycle?.inPlaceUpdate?.markPodNotReady);
}

export interface LifecyclePatch {
  metadata: { labels: Record<string, string>; annotations: Record<string, string>; finalizers?: string[] };
}

/**
 * Strategic-merge patch body moving a pod to `state` and stamping the time. With `handler` (an
 * Updated pod going back to PreparingUpdate) the hook's labels and finalizers are re-applied too.
 */
export function lifecycleStatePatch(state: LifecycleState, now: Date, handler?: LifecycleHook): LifecyclePatch {
  const patch: LifecyclePatch = {
    metadata: {
      labels: { ...handler?.labelsHandler, [LifecycleStateLabel]: state },
      annotations: { [LifecycleTimestampAnnotation]: rfc3339(now) },
    },
  };
  if (handler?.finalizersHandler?.length) patch.metadata.finalizers = [...handler.finalizersHandler];
  return patch;
}
