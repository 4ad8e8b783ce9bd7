/**
 * Refreshing many pods of a pass at once (at most refreshConcurrency writes in flight): each
 * refreshed pod's place in the pass (slot or condemned entry) then holds the copy the server
 * returned, so later steps of the pass start from it. A conflict or a pod already gone is not an
 * error of the pass: the cache is behind, the pod's own event brings the pass back (a short requeue
 * covers a missed one), and the other pods' refreshes go on.
 */
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { requeueAfter, type PassContext } from './pass.js';
import { isCreated, isFinished, isTerminating } from './pod-state.js';
import { refreshPod, type RefreshTracker } from './refresh.js';
import type { Pod } from '../../api/core/index.js';

/** Requeue after a lost race, in case the event that explains it was already handled. */
const behindCacheRequeueMs = 1_000;

export interface Place {
  list: (Pod | undefined)[];
  index: number;
}

/** Places of the pods in `lists` (the pass's slots, condemned pods) that `want` selects. */
export function placesOf(lists: readonly (Pod | undefined)[][], want: (pod: Pod) => boolean): Place[] {
  const out: Place[] = [];
  for (const list of lists) {
    list.forEach((pod, index) => { if (pod && want(pod)) out.push({ list, index }); });
  }
  return out;
}

/** A pod the replica walk would refresh: created, not finished, not terminating. */
export const isLive = (pod: Pod): boolean => isCreated(pod) && !isFinished(pod) && !isTerminating(pod);

async function refreshAt(c: PassContext, tracker: RefreshTracker, { list, index }: Place): Promise<void> {
  const pod = list[index];
  if (!pod || !isCreated(pod)) return;
  try {
    list[index] = await refreshPod(c, pod, tracker);
  } catch (e) {
    if (!isConflict(e) && !isNotFound(e)) throw e;
    requeueAfter(c, behindCacheRequeueMs);
  }
}

/** Refreshes the pods at `places` not refreshed yet this pass; throws the first real error once all are done. */
export async function refreshPlaces(c: PassContext, tracker: RefreshTracker, places: readonly Place[]): Promise<void> {
  const results = await Promise.allSettled(places.map((p) => tracker.limit.run(() => refreshAt(c, tracker, p))));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
