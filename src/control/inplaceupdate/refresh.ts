/**
 * What a refresh pass does for one pod (docs/design/inplace-update.md §5), decided from the pod alone:
 * finish or drop a pending grace period, start the next container batch once the previous one is
 * ready, or flip `InPlaceUpdateReady` back to True once the update is done. Pure: the caller writes
 * the returned pod (a full update, or a status update for the condition).
 */
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { revisionHash } from './calculate-spec.js';
import { checkContainersUpdateCompleted, hasNextWork, type RuntimeMetaCheck } from './completion.js';
import { hasInPlaceReadinessGate, markInPlaceUpdateReady } from './conditions.js';
import { patchSpecToPod } from './patch-pod.js';
import { readGrace, readState, removeGrace } from './state.js';
import type { UpdateSpec } from './types.js';
import type { Pod } from '../../api/core/index.js';

export type RefreshPlan =
  | { kind: 'none'; requeueAfterMs?: number; reason?: string }
  | { kind: 'update'; pod: Pod; step: 'grace-superseded' | 'grace-applied' | 'next-batch' }
  | { kind: 'updateStatus'; pod: Pod };

export interface RefreshOptions {
  /** The pod still targets `revision`; default compares `controller-revision-hash` by name or bare hash. */
  revisionMatches?: (pod: Pod, revision: string) => boolean;
  runtimeCheck?: RuntimeMetaCheck;
}

export function defaultRevisionMatches(pod: Pod, revision: string): boolean {
  const label = pod.metadata.labels?.[ControllerRevisionHashLabel];
  return label !== undefined && (label === revision || revisionHash(label) === revisionHash(revision));
}

/** Whole seconds, rounded up, as upstream requeues a grace remainder. */
export const roundUpToSecond = (ms: number): number => Math.ceil(ms / 1000) * 1000;

function planGrace(pod: Pod, grace: UpdateSpec, now: Date, options: RefreshOptions): RefreshPlan {
  const state = readState(pod);
  if (!state) throw new Error('pod has apps.kruise.io/inplace-update-grace but apps.kruise.io/inplace-update-state not found');
  const out = structuredClone(pod);
  if (!(options.revisionMatches ?? defaultRevisionMatches)(pod, grace.revision)) {
    removeGrace(out);
    return { kind: 'update', pod: out, step: 'grace-superseded' };
  }
  const remaining = grace.graceSeconds * 1000 - (now.getTime() - Date.parse(state.updateTimestamp));
  if (remaining > 0) return { kind: 'none', requeueAfterMs: roundUpToSecond(remaining), reason: 'in grace period' };
  patchSpecToPod(out, grace, state, now);
  removeGrace(out);
  return { kind: 'update', pod: out, step: 'grace-applied' };
}

function unreadyPrecheck(pod: Pod, required: string[] = []): string | undefined {
  const statuses = pod.status?.containerStatuses ?? [];
  return required.find((name) => !statuses.find((s) => s.name === name)?.ready);
}

/** The refresh step for `pod` at `now`. Throws when the in-place annotations are unreadable. */
export function planRefresh(pod: Pod, now: Date, options: RefreshOptions = {}): RefreshPlan {
  const grace = readGrace(pod);
  if (grace) return planGrace(pod, grace, now, options);
  const state = readState(pod);
  if (state) {
    const check = checkContainersUpdateCompleted(pod, state, options.runtimeCheck);
    if (!check.completed) return { kind: 'none', reason: check.reason };
    if (hasNextWork(state)) {
      const waiting = unreadyPrecheck(pod, state.preCheckBeforeNext?.containersRequiredReady);
      if (waiting !== undefined) return { kind: 'none', reason: `waiting container ${waiting} to be ready` };
      const next: UpdateSpec = {
        revision: state.revision, containerImages: state.nextContainerImages ?? {}, containerRefMetadata: state.nextContainerRefMetadata ?? {},
        containerResources: state.nextContainerResources ?? {}, updateEnvFromMetadata: !!state.updateEnvFromMetadata, graceSeconds: 0,
      };
      return { kind: 'update', pod: patchSpecToPod(structuredClone(pod), next, state, now), step: 'next-batch' };
    }
  }
  if (!hasInPlaceReadinessGate(pod)) return { kind: 'none' };
  const flipped = markInPlaceUpdateReady(pod, now);
  return flipped ? { kind: 'updateStatus', pod: flipped } : { kind: 'none' };
}
