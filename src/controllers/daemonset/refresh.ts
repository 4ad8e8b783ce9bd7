/**
 * docs/design/inplace-update.md §5 for every daemon pod (docs/design/advanced-daemonset.md §8), up to refreshConcurrency at a time,
 * from the cached pods without GETs. Flipping InPlaceUpdateReady back to True after an in-place
 * update is the updater's status update of the observed version (upstream #2274); a pod that lacks
 * the condition (a new pod: no update has started on it) gets it by the updater's
 * markReadyIfMissing, a strategic-merge patch the scheduler's and kubelet's writes cannot conflict.
 * A conflict or a pod already gone is not an error of the pass: the cache is behind and the pod's
 * next event brings the pass back. Every write is recorded as a resourceVersion expectation, so no
 * later pass judges the stale copy.
 */
import { objectKey } from '../../api/meta.js';
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { planRefresh, podCondition, type InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { forEachLimited } from '../../runtime/parallel.js';
import type { PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';

/** Pod refreshes in flight at once. */
export const refreshConcurrency = 16;
/** Requeue after a lost race, in case the event that explains it was already handled. */
const behindCacheRequeueMs = 1_000;

const minOf = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/** Writes what planRefresh decided for one pod; returns a requeue delay, if any. */
async function refreshOne(c: PassContext, updater: InPlaceUpdater, pod: Pod): Promise<number | undefined> {
  const plan = planRefresh(pod, new Date(c.now));
  if (plan.kind === 'none') return plan.requeueAfterMs;
  if (plan.kind === 'updateStatus') {
    const written = podCondition(pod, InPlaceUpdateReadyCondition) ? await updater.refresh(pod) : await updater.markReadyIfMissing(pod);
    if (written.error) throw written.error;
    if (written.pod) c.podUpdates.expectUpdated(objectKey(pod), written.pod);
    return undefined;
  }
  const r = await updater.refresh(pod);
  if (r.error) throw r.error;
  if (r.newResourceVersion) c.podUpdates.expectUpdated(objectKey(pod), { metadata: { resourceVersion: r.newResourceVersion } });
  return r.requeueAfterMs;
}

/** Refreshes every live pod; returns a requeue delay, if any. Throws the first error other than a lost race. */
export async function refreshUpdateStates(c: PassContext, updater: InPlaceUpdater, pods: readonly Pod[]): Promise<number | undefined> {
  let requeue: number | undefined;
  await forEachLimited(pods.filter((p) => !p.metadata.deletionTimestamp), refreshConcurrency, async (pod) => {
    try {
      requeue = minOf(requeue, await refreshOne(c, updater, pod));
    } catch (e) {
      if (!isConflict(e) && !isNotFound(e)) throw e;
      requeue = minOf(requeue, behindCacheRequeueMs);
    }
  });
  return requeue;
}
