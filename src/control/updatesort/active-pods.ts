/**
 * The k8s ActivePods order ("delete these first"), optionally extended the way CloneSet scale-in
 * extends it (docs/design/cloneset.md §8): availability, pod-deletion-cost and a spread rank.
 */
import type { Pod } from '../../api/core/index.js';
import {
  isPodReady, maxContainerRestarts, newerOrZeroFirst, phaseOrdinal, podDeletionCost, podReadyTime, 
} from './pod-facts.js';

export interface ActivePodsExtras<P extends Pod = Pod> {
  /** Not-available pods first (compared before readiness). */
  isAvailable?: (pod: P) => boolean;
  /** Lower `controller.kubernetes.io/pod-deletion-cost` first. */
  deletionCost?: boolean;
  /** Higher rank first (e.g. pods crowding a node or topology domain). */
  rank?: (pod: P) => number;
}

/**
 * Comparator: unscheduled < scheduled; Pending < Unknown < Running; [not available first];
 * not ready < ready; [lower deletion cost]; [higher rank]; ready more recently first; more
 * restarts first; newer (or no creation time) first. Ties compare equal (Array.sort is stable).
 */
export function compareActivePods<P extends Pod>(extras: ActivePodsExtras<P> = {}): (a: P, b: P) => number {
  return (a, b) => {
    const nodeA = a.spec?.nodeName ?? '';
    const nodeB = b.spec?.nodeName ?? '';
    if (nodeA !== nodeB && (!nodeA || !nodeB)) return nodeA ? 1 : -1;
    const phase = phaseOrdinal(a) - phaseOrdinal(b);
    if (phase) return phase;
    if (extras.isAvailable) {
      const av = Number(extras.isAvailable(a)) - Number(extras.isAvailable(b));
      if (av) return av;
    }
    const readyA = isPodReady(a);
    const readyB = isPodReady(b);
    if (readyA !== readyB) return readyA ? 1 : -1;
    if (extras.deletionCost) {
      const cost = podDeletionCost(a) - podDeletionCost(b);
      if (cost) return cost;
    }
    if (extras.rank) {
      const rank = extras.rank(b) - extras.rank(a);
      if (rank) return rank;
    }
    if (readyA && readyB) {
      const ready = newerOrZeroFirst(podReadyTime(a), podReadyTime(b));
      if (ready) return ready;
    }
    const restarts = maxContainerRestarts(b) - maxContainerRestarts(a);
    if (restarts) return restarts;
    return newerOrZeroFirst(a.metadata.creationTimestamp, b.metadata.creationTimestamp);
  };
}

/** A sorted copy in ActivePods order. */
export function sortActivePods<P extends Pod>(pods: readonly P[], extras: ActivePodsExtras<P> = {}): P[] {
  return [...pods].sort(compareActivePods(extras));
}
