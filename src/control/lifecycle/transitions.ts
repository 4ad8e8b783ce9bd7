/**
 * The lifecycle transition table of docs/design/inplace-update.md §9 as pure decisions. Per-kind differences live in
 * `kindRules`; each function answers one row of the table for one pod.
 */
import { SpecifiedDeleteLabel } from '../../api/kruise/workloads/labels.js';
import { isAllHooked, isHooked, isRequiredPodNotReady, LifecycleState, podLifecycleState, type Lifecycle } from './hooks.js';
import type { Pod } from '../../api/core/index.js';

export type LifecycleKind = 'CloneSet' | 'StatefulSet' | 'DaemonSet';

interface KindRules {
  /** State label on a new pod; undefined = no label. */
  createState(pod: Pod, lifecycle: Lifecycle | undefined): LifecycleState | undefined;
  /** Whether a PreparingNormal pod may become Normal. */
  readyForNormal(pod: Pod, lifecycle: Lifecycle | undefined): boolean;
  /** PreparingDelete may be cancelled back to PreparingNormal when replicas grow. */
  cancelDelete: boolean;
  /** The inPlaceUpdate hook and the Updating/Updated states apply. */
  inPlaceHook: boolean;
  /** Updating is written only when the pod already has a state label. */
  updatingNeedsLabel: boolean;
}

const preNormalDone = (pod: Pod, lifecycle: Lifecycle | undefined) =>
  !lifecycle?.preNormal || isAllHooked(pod, lifecycle.preNormal);

export const kindRules: Record<LifecycleKind, KindRules> = {
  CloneSet: {
    createState: () => LifecycleState.PreparingNormal,
    readyForNormal: (pod, lifecycle) => (lifecycle?.preNormal ? isAllHooked(pod, lifecycle.preNormal) : !!pod.spec?.nodeName),
    cancelDelete: true, inPlaceHook: true, updatingNeedsLabel: false,
  },
  StatefulSet: {
    createState: (pod, lifecycle) => (preNormalDone(pod, lifecycle) ? LifecycleState.Normal : LifecycleState.PreparingNormal),
    readyForNormal: preNormalDone,
    cancelDelete: false, inPlaceHook: true, updatingNeedsLabel: true,
  },
  DaemonSet: {
    createState: () => undefined,
    readyForNormal: () => false,
    cancelDelete: false, inPlaceHook: false, updatingNeedsLabel: false,
  },
};

/** Row "create": the state label for a pod about to be created (built with its template labels/finalizers). */
export function nextStateForCreate(kind: LifecycleKind, lifecycle: Lifecycle | undefined, pod: Pod): LifecycleState | undefined {
  return kindRules[kind].createState(pod, lifecycle);
}

/** Row "PreparingNormal → Normal". */
export function preparingNormalToNormal(pod: Pod, lifecycle: Lifecycle | undefined, kind: LifecycleKind): boolean {
  return podLifecycleState(pod) === LifecycleState.PreparingNormal && kindRules[kind].readyForNormal(pod, lifecycle);
}

/** Row "before delete": hooked by preDelete and not yet PreparingDelete (all kinds). */
export function shouldEnterPreparingDelete(pod: Pod, lifecycle: Lifecycle | undefined): boolean {
  return podLifecycleState(pod) !== LifecycleState.PreparingDelete && isHooked(pod, lifecycle?.preDelete);
}

/** Row "PreparingDelete → deleted": no longer hooked by preDelete. */
export function canLeavePreparingDelete(pod: Pod, lifecycle: Lifecycle | undefined): boolean {
  return !isHooked(pod, lifecycle?.preDelete);
}

/** What to do with a pod chosen for deletion. */
export function deleteDecision(pod: Pod, lifecycle: Lifecycle | undefined): 'delete' | 'enterPreparingDelete' | 'wait' {
  if (shouldEnterPreparingDelete(pod, lifecycle)) return 'enterPreparingDelete';
  if (podLifecycleState(pod) === LifecycleState.PreparingDelete && !canLeavePreparingDelete(pod, lifecycle)) return 'wait';
  return 'delete';
}

/** Row "PreparingDelete → PreparingNormal": CloneSet only; the caller decides that replicas grew back. */
export function canCancelPreparingDelete(pod: Pod, lifecycle: Lifecycle | undefined, kind: LifecycleKind): boolean {
  return kindRules[kind].cancelDelete && podLifecycleState(pod) === LifecycleState.PreparingDelete
    && pod.metadata.labels?.[SpecifiedDeleteLabel] === undefined && !isRequiredPodNotReady(lifecycle);
}

export type InPlaceDecision = 'start' | 'enterPreparingUpdate' | 'reenterPreparingUpdate' | 'wait' | 'refuse';

/**
 * Rows "before in-place" and "Updated pod needing another update": start now, move to
 * PreparingUpdate first (re-applying the hook from Updated), wait for the hook to go, or refuse
 * (PreparingDelete pods are never updated in place; PreparingNormal ones are, as upstream allows).
 */
export function beforeInPlaceUpdate(pod: Pod, lifecycle: Lifecycle | undefined, kind: LifecycleKind): InPlaceDecision {
  if (!kindRules[kind].inPlaceHook) return 'start';
  const hook = lifecycle?.inPlaceUpdate;
  switch (podLifecycleState(pod)) {
    case '': case LifecycleState.PreparingNormal: case LifecycleState.Normal: return isHooked(pod, hook) ? 'enterPreparingUpdate' : 'start';
    case LifecycleState.PreparingUpdate: return isHooked(pod, hook) ? 'wait' : 'start';
    case LifecycleState.Updating: return 'start';
    case LifecycleState.Updated: return hook ? 'reenterPreparingUpdate' : 'start';
    default: return 'refuse';
  }
}

/** Row "in-place start": the state written with the in-place patch (undefined = leave the label alone). */
export function inPlaceStartState(pod: Pod, kind: LifecycleKind): LifecycleState | undefined {
  const rules = kindRules[kind];
  if (!rules.inPlaceHook || (rules.updatingNeedsLabel && podLifecycleState(pod) === '')) return undefined;
  return LifecycleState.Updating;
}

/** Rows "after in-place done" and "PreparingUpdate pod already at update revision". */
export function afterInPlaceDone(pod: Pod, lifecycle: Lifecycle | undefined): LifecycleState {
  return lifecycle?.inPlaceUpdate && !isAllHooked(pod, lifecycle.inPlaceUpdate) ? LifecycleState.Updated : LifecycleState.Normal;
}

/** Row "Updated → Normal": the hook is gone from the spec or fully back on the pod. */
export function updatedToNormal(pod: Pod, lifecycle: Lifecycle | undefined): boolean {
  return podLifecycleState(pod) === LifecycleState.Updated && (!lifecycle?.inPlaceUpdate || isAllHooked(pod, lifecycle.inPlaceUpdate));
}

/**
 * The state a pass should move an existing pod to without any update or delete decision:
 * PreparingNormal → Normal, Updating (finished) → Updated/Normal, Updated → Normal.
 */
export function refreshLifecycleState(
  pod: Pod, lifecycle: Lifecycle | undefined, kind: LifecycleKind, inPlaceCompleted: boolean,
): LifecycleState | undefined {
  const state = podLifecycleState(pod);
  if (state === LifecycleState.PreparingNormal) return preparingNormalToNormal(pod, lifecycle, kind) ? LifecycleState.Normal : undefined;
  if (state === LifecycleState.Updating && inPlaceCompleted && kindRules[kind].inPlaceHook) return afterInPlaceDone(pod, lifecycle);
  if (updatedToNormal(pod, lifecycle)) return LifecycleState.Normal;
  return undefined;
}
