/** SidecarSet status (docs/design/sidecarset.md §5): counts over the matched pods, written only on change. */
import type { Pod } from '../../api/core/index.js';
import type { SidecarSet as SidecarSetKind } from '../../api/kruise/ops/sidecarset.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import { isSidecarReady, isUpdatedPod } from './pod-state.js';

export type SidecarSetStatus = NonNullable<SidecarSetKind['status']>;

export function computeStatus(set: SidecarSet, matched: Pod[], latestRevision: string | undefined, collisionCount: number): SidecarSetStatus {
  let updatedPods = 0;
  let readyPods = 0;
  let updatedReadyPods = 0;
  for (const pod of matched) {
    const updated = isUpdatedPod(set, pod);
    const ready = isSidecarReady(set, pod);
    if (updated) updatedPods++;
    if (ready) readyPods++;
    if (updated && ready) updatedReadyPods++;
  }
  return {
    observedGeneration: set.metadata.generation, matchedPods: matched.length, updatedPods, readyPods, updatedReadyPods,
    latestRevision, ...(collisionCount > 0 ? { collisionCount } : {}),
  };
}
