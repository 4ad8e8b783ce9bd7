/**
 * Revision choice for a new pod and the rolling-update order (docs/design/advanced-statefulset.md §6, §9),
 * over the position array of a pass: slot i holds ordinal start+i, undefined for a reserved hole.
 */
import { LifecycleState, LifecycleStateLabel } from '../../api/kruise/workloads/labels.js';
import { sortByPriority } from '../../control/updatesort/index.js';
import { isTerminating, podRevision } from './pod-state.js';
import type { Pod } from '../../api/core/index.js';
import type { StatefulSet } from './types.js';

export type Slots = (Pod | undefined)[];

const rolling = (set: StatefulSet) => (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
export const partitionOf = (set: StatefulSet): number => Math.max(0, set.spec.updateStrategy?.rollingUpdate?.partition ?? 0);

/**
 * Whether the pod created at `position` takes the current revision: OnDelete never; ordered
 * rolling update when it is among the first `partition` unreserved positions; unordered when
 * fewer than `partition` other pods are off the update revision.
 */
export function needsCurrentRevision(set: StatefulSet, updateRevision: string, position: number, slots: Slots): boolean {
  if (!rolling(set)) return false;
  const partition = partitionOf(set);
  if (!set.spec.updateStrategy?.rollingUpdate?.unorderedUpdate) {
    const before = slots.slice(0, position).filter((p) => p !== undefined).length;
    return before + 1 <= partition;
  }
  const notUpdated = slots.filter((p, i) => p !== undefined && i !== position && podRevision(p) !== updateRevision).length;
  return notUpdated < partition;
}

/**
 * Positions to consider for update, in order. Ordered: from the highest down to `partition`.
 * Unordered: updated or terminating pods first, then the rest (highest first) stably sorted by
 * the priority strategy; at most `replicas − partition` either way.
 */
export function positionsToUpdate(set: StatefulSet, updateRevision: string, slots: Slots, preparingUpdateAsUpdate = false): number[] {
  const partition = partitionOf(set);
  const maxUpdate = (set.spec.replicas ?? 1) - partition;
  if (maxUpdate <= 0) return [];
  const unordered = set.spec.updateStrategy?.rollingUpdate?.unorderedUpdate;
  const present: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) if (slots[i]) present.push(i);
  if (!unordered) return present.filter((i) => i >= partition);
  const isUpdated = (p: Pod) => podRevision(p) === updateRevision
    || (preparingUpdateAsUpdate && p.metadata.labels?.[LifecycleStateLabel] === LifecycleState.PreparingUpdate);
  const done = present.filter((i) => isTerminating(slots[i]!) || isUpdated(slots[i]!));
  let waiting = present.filter((i) => !done.includes(i));
  if (unordered.priorityStrategy) {
    const byPod = new Map(waiting.map((i) => [slots[i]!, i]));
    waiting = sortByPriority([...byPod.keys()], unordered.priorityStrategy).map((p) => byPod.get(p)!);
  }
  return [...done, ...waiting].slice(0, maxUpdate);
}
