/**
 * The rolling-update phase of an ASTS pass (docs/design/advanced-statefulset.md §9): refresh every pod and
 * stop if a lifecycle state moved; stop when paused; otherwise, within maxUnavailable (floor,
 * at least 1), delete pods labelled specified-delete, then walk the update order and update each
 * pod off the update revision in place when possible, else delete it (the replica phase of a
 * later pass recreates it at the update revision). With volumeClaimUpdateStrategy OnPodRollingUpdate
 * the claims of every pod in the update order are expanded to the templates' storage first.
 */
import { SpecifiedDeleteLabel } from '../../api/kruise/workloads/labels.js';
import { isPodUpdateCompleted } from '../../control/inplaceupdate/index.js';
import { expandClaims, resizeEnabled } from './claim-resize.js';
import { updateInPlace } from './inplace.js';
import { requeueAfter, type PassContext } from './pass.js';
import { deleteThroughHook } from './pod-control.js';
import { availability, isCreated, isHealthy, isTerminating, podRevision } from './pod-state.js';
import type { RefreshTracker } from './refresh.js';
import { placesOf, refreshPlaces } from './refresh-sweep.js';
import { minReadySecondsOf } from './status.js';
import { positionsToUpdate } from './update-order.js';
import { budgetOf } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** Names of in-range pods that are unhealthy, mid in-place update, or not yet available. */
export function unavailablePods(c: PassContext): Set<string> {
  const out = new Set<string>();
  const minReady = minReadySecondsOf(c.set);
  for (const pod of c.slots) {
    if (!pod) continue;
    const name = pod.metadata.name!;
    if (!isCreated(pod) || !isHealthy(pod) || c.deleted.has(name) || !isPodUpdateCompleted(pod)) {
      out.add(name);
      continue;
    }
    const { available, waitMs } = availability(pod, minReady, c.now);
    if (!available) {
      out.add(name);
      requeueAfter(c, waitMs);
    }
  }
  return out;
}

/** docs/design/advanced-statefulset.md §9 step 4: specified-delete pods, highest position first, within the budget. Returns their names. */
async function deleteSpecified(c: PassContext, maxUnavailable: number, unavailable: Set<string>): Promise<Set<string>> {
  const handled = new Set<string>();
  for (let i = c.slots.length - 1; i >= 0; i--) {
    const pod = c.slots[i];
    if (!pod || !isCreated(pod) || pod.metadata.labels?.[SpecifiedDeleteLabel] === undefined) continue;
    const name = pod.metadata.name!;
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) continue;
    await deleteThroughHook(c, pod);
    unavailable.add(name);
    handled.add(name);
  }
  return handled;
}

export async function rollingUpdate(c: PassContext, tracker: RefreshTracker): Promise<void> {
  const strategy = c.set.spec.updateStrategy;
  if (strategy?.type === 'OnDelete') return;
  await refreshPlaces(c, tracker, placesOf([c.slots, c.condemned], isCreated));
  if (tracker.changed || strategy?.rollingUpdate?.paused) return;
  const maxUnavailable = budgetOf(strategy?.rollingUpdate?.maxUnavailable, c.set.spec.replicas ?? 1);
  const unavailable = unavailablePods(c);
  const specified = await deleteSpecified(c, maxUnavailable, unavailable);
  const updateRevision = c.update.metadata.name!;
  const resize = resizeEnabled(c.set, c.gate);
  for (const i of positionsToUpdate(c.set, updateRevision, c.slots, c.gate('PreparingUpdateAsUpdate'))) {
    const pod: Pod = c.slots[i]!;
    const name = pod.metadata.name!;
    if (resize && isCreated(pod) && !isTerminating(pod)) await expandClaims(c, pod, c.range.start + i);
    if (podRevision(pod) === updateRevision) continue;
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) break;
    if (specified.has(name) || isTerminating(pod) || !isCreated(pod) || c.deleted.has(name)) continue;
    if (!(await updateInPlace(c, pod))) await deleteThroughHook(c, pod);
    unavailable.add(name);
  }
}
