/**
 * Splitting a set's pods by ordinal (docs/design/advanced-statefulset.md §6): in-range pods into the
 * position array, missing in-range ordinals filled with new pod objects at the right revision
 * (not created yet: empty phase), other parsable ordinals condemned (highest first).
 */
import { newStatefulSetPod } from './identity.js';
import { inRange, isReserved, ordinalOf, type ReplicaRange } from './ordinals.js';
import { isCreated } from './pod-state.js';
import { needsCurrentRevision, type Slots } from './update-order.js';
import type { GateReader, StatefulSet } from './types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

/** Guard against a reserved range that would make the position array absurdly long. */
export const maxPositions = 100_000;

export interface SplitPods {
  slots: Slots;
  condemned: Pod[];
}

export function splitPods(set: StatefulSet, pods: readonly Pod[], range: ReplicaRange): SplitPods {
  const span = range.end - range.start;
  if (span > maxPositions) throw new Error(`replica range [${range.start}, ${range.end}) spans more than ${maxPositions} ordinals`);
  const slots: Slots = new Array<Pod | undefined>(span).fill(undefined);
  const condemned: { pod: Pod; ordinal: number }[] = [];
  for (const pod of pods) {
    const ordinal = ordinalOf(set.metadata.name!, pod.metadata.name);
    if (ordinal === undefined) continue;
    if (inRange(range, ordinal)) slots[ordinal - range.start] = pod;
    else condemned.push({ pod, ordinal });
  }
  condemned.sort((a, b) => b.ordinal - a.ordinal);
  return { slots, condemned: condemned.map((c) => c.pod) };
}

export interface Revisions {
  current: ControllerRevision;
  update: ControllerRevision;
}

/**
 * Fills every missing unreserved position, lowest first, with a pod of the revision docs/design/advanced-statefulset.md §6 picks.
 * A pod with an empty phase counts as not created (docs/design/advanced-statefulset.md §6) and is replaced the same way.
 */
export function fillMissing(set: StatefulSet, slots: Slots, range: ReplicaRange, revisions: Revisions, gate: GateReader, now: Date): void {
  for (let i = 0; i < slots.length; i++) {
    const existing = slots[i];
    if ((existing && isCreated(existing)) || isReserved(range.reserved, range.start + i)) continue;
    slots[i] = undefined;
    const current = needsCurrentRevision(set, revisions.update.metadata.name!, i, slots);
    slots[i] = newStatefulSetPod(set, current ? revisions.current : revisions.update, range.start + i, gate, now);
  }
}
