/** SidecarSet status (docs/design/sidecarset.md §5): counts over the matched pods (pod-tally.ts), written only on change. */
import type { SidecarSet as SidecarSetKind } from '../../api/kruise/ops/sidecarset.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import type { TallyCounts } from './pod-tally.js';

export type SidecarSetStatus = NonNullable<SidecarSetKind['status']>;

export function computeStatus(set: SidecarSet, counts: TallyCounts, latestRevision: string | undefined, collisionCount: number): SidecarSetStatus {
  const { matchedPods, updatedPods, readyPods, updatedReadyPods } = counts;
  return {
    observedGeneration: set.metadata.generation, matchedPods, updatedPods, readyPods, updatedReadyPods,
    latestRevision, ...(collisionCount > 0 ? { collisionCount } : {}),
  };
}
