/**
 * Per-pod facts of the Advanced DaemonSet rules: updated (carries the current hash), ready,
 * available (ready for minReadySeconds and InPlaceUpdateReady not False), pre-deleting, finished;
 * and the "oldest first" order the per-node decisions use.
 */
import { DeprecatedTemplateGenerationAnnotation, PodTemplateGenerationLabel } from '../../api/kruise/workloads/daemonset.js';
import { ControllerRevisionHashLabel, InPlaceUpdateReadyCondition, LifecycleState, LifecycleStateLabel } from '../../api/kruise/workloads/labels.js';
import { targetNodeName } from '../../machinery/scheduling/index.js';
import type { Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

export const podTarget = (pod: Pod): string | undefined => targetNodeName(pod.spec);

/** util.IsPodUpdated: the current hash, or (legacy) the template generation. */
export function isPodUpdated(pod: Pod, hash: string, ds: DaemonSet): boolean {
  const labels = pod.metadata.labels ?? {};
  const generation = ds.metadata.annotations?.[DeprecatedTemplateGenerationAnnotation];
  return labels[ControllerRevisionHashLabel] === hash || (generation !== undefined && labels[PodTemplateGenerationLabel] === generation);
}

export const isPodReady = (pod: Pod): boolean => condition(pod, 'Ready')?.status === 'True';

export const hasInPlaceGate = (pod: Pod): boolean =>
  (pod.spec.readinessGates ?? []).some((g) => g.conditionType === InPlaceUpdateReadyCondition);

export const isPreDeleting = (pod: Pod | undefined): boolean =>
  pod?.metadata.labels?.[LifecycleStateLabel] === LifecycleState.PreparingDelete;

export const isFinished = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

/**
 * isDaemonPodAvailable: Ready for minReadySeconds and, with the InPlaceUpdateReady gate, that
 * condition not False. `waitMs` is how long a ready pod still needs.
 */
export function availability(pod: Pod, minReadySeconds: number, now: number): { available: boolean; waitMs?: number } {
  if (!isPodReady(pod)) return { available: false };
  const inPlace = condition(pod, InPlaceUpdateReadyCondition);
  if (hasInPlaceGate(pod) && inPlace && inPlace.status !== 'True') return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const since = Date.parse(condition(pod, 'Ready')?.lastTransitionTime ?? '');
  if (Number.isNaN(since)) return { available: false, waitMs: minReadySeconds * 1000 };
  const left = since + minReadySeconds * 1000 - now;
  return left <= 0 ? { available: true } : { available: false, waitMs: left };
}

/** podByCreationTimestampAndPhase: scheduled first, then older, then by name. */
export function oldestFirst(a: Pod, b: Pod): number {
  const boundA = !!a.spec.nodeName;
  const boundB = !!b.spec.nodeName;
  if (boundA !== boundB) return boundA ? -1 : 1;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * findUpdatedPodsOnNode: the live new and old pod of a node; `ok` false when it has several of
 * either (the manage step trims those first).
 */
export function updatedPodsOnNode(pods: readonly Pod[], hash: string, ds: DaemonSet): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, ds)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}
