/**
 * Refreshing one pod (workloads.md §2.3 step 3, §3 for ASTS): finish or drop an in-place grace
 * period and flip `InPlaceUpdateReady` back on, then move its lifecycle state along —
 * PreparingNormal → Normal, finished Updating → Updated/Normal, Updated → Normal, and a
 * PreparingUpdate pod already at the update revision (a rollback) → Updated/Normal.
 */
import { planRefresh, isPodUpdateCompleted } from '../../control/inplaceupdate/index.js';
import {
  afterInPlaceDone, LifecycleState, podLifecycleState, refreshLifecycleState,
} from '../../control/lifecycle/index.js';
import { setLifecycleState } from './lifecycle-control.js';
import { podKey, requeueAfter, type PassContext } from './pass.js';
import { podRevision } from './pod-state.js';
import { asLifecyclePod, type Pod } from './types.js';

/** The state a pass moves `pod` to without any update or delete decision; undefined to leave it. */
export function nextRefreshState(c: Pick<PassContext, 'set' | 'update'>, pod: Pod): LifecycleState | undefined {
  const lifecycle = c.set.spec.lifecycle;
  const lp = asLifecyclePod(pod);
  if (podLifecycleState(lp) === LifecycleState.PreparingUpdate) {
    return podRevision(pod) === c.update.metadata.name ? afterInPlaceDone(lp, lifecycle) : undefined;
  }
  return refreshLifecycleState(lp, lifecycle, 'StatefulSet', isPodUpdateCompleted(pod));
}

/** Pods refreshed in this pass, and whether any lifecycle state moved (the rolling update then waits). */
export interface RefreshTracker {
  seen: Set<string>;
  changed: boolean;
}

export const newRefreshTracker = (): RefreshTracker => ({ seen: new Set(), changed: false });

/** In-place refresh, then lifecycle, once per pod and pass. */
export async function refreshPod(c: PassContext, pod: Pod, tracker: RefreshTracker): Promise<void> {
  const name = pod.metadata.name!;
  if (tracker.seen.has(name)) return;
  tracker.seen.add(name);
  const plan = planRefresh(pod, new Date(c.now));
  if (plan.kind === 'none') {
    requeueAfter(c, plan.requeueAfterMs);
  } else {
    const r = await c.updater.refresh(pod);
    if (r.error) throw r.error;
    requeueAfter(c, r.requeueAfterMs);
    // The write's resourceVersion is not returned: wait for any copy newer than the one judged.
    const rv = pod.metadata.resourceVersion ?? '';
    if (/^\d+$/.test(rv)) c.podWrites.expectUpdated(podKey(pod), { metadata: { resourceVersion: String(BigInt(rv) + 1n) } });
  }
  const state = nextRefreshState(c, pod);
  if (!state) return;
  const markPodNotReady = !!c.set.spec.lifecycle?.inPlaceUpdate?.markPodNotReady;
  if (await setLifecycleState(c, pod, state, markPodNotReady)) tracker.changed = true;
}
