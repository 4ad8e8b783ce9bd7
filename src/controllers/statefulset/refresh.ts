/**
 * Refreshing one pod (docs/design/inplace-update.md §5, §9 for ASTS): finish or drop an in-place grace
 * period and flip `InPlaceUpdateReady` back on, then move its lifecycle state along —
 * PreparingNormal → Normal, finished Updating → Updated/Normal, Updated → Normal, and a
 * PreparingUpdate pod already at the update revision (a rollback) → Updated/Normal.
 * When the refresh is the condition flip, the lifecycle move rides on the same pods/status write
 * (the updater's onReady; that subresource takes labels and annotations too), made from the cached
 * pod without a GET: one write instead of a status update plus a label patch. The False-to-True
 * flip is an update for the observed version only (a conflict means the cache is behind; the pod's
 * next event brings the pass back). A pod that lacks the condition (a new pod: no in-place update
 * has started on it) gets it by the updater's markReadyIfMissing, a strategic-merge patch the
 * scheduler's and kubelet's writes cannot conflict.
 */
import { objectKey } from '../../api/meta.js';
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { planRefresh, isPodUpdateCompleted, podCondition } from '../../control/inplaceupdate/index.js';
import {
  afterInPlaceDone, LifecycleState, lifecycleStatePatch, podLifecycleState, readinessForState, refreshLifecycleState,
} from '../../control/lifecycle/index.js';
import { Limiter } from '../../runtime/limiter.js';
import { setLifecycleState } from './lifecycle-control.js';
import { requeueAfter, type PassContext } from './pass.js';
import { podRevision } from './pod-state.js';
import type { Pod } from '../../api/core/index.js';

/** Pod refreshes in flight at once within one pass. */
export const refreshConcurrency = 16;

/** The state a pass moves `pod` to without any update or delete decision; undefined to leave it. */
export function nextRefreshState(c: Pick<PassContext, 'set' | 'update'>, pod: Pod): LifecycleState | undefined {
  const lifecycle = c.set.spec.lifecycle;
  const lp = pod;
  if (podLifecycleState(lp) === LifecycleState.PreparingUpdate) {
    return podRevision(pod) === c.update.metadata.name ? afterInPlaceDone(lp, lifecycle) : undefined;
  }
  return refreshLifecycleState(lp, lifecycle, 'StatefulSet', isPodUpdateCompleted(pod));
}

/** Pods refreshed in this pass, whether any lifecycle state moved (the rolling update then waits), the pass's write limit. */
export interface RefreshTracker {
  seen: Set<string>;
  changed: boolean;
  limit: Limiter;
}

export const newRefreshTracker = (): RefreshTracker => ({ seen: new Set(), changed: false, limit: new Limiter(refreshConcurrency) });

/**
 * `next` (the pod as the InPlaceUpdateReady=True write will carry it) with the lifecycle move to
 * `state` folded in: the state label and timestamp, and with markPodNotReady the KruisePodReady
 * change of that state.
 */
export function withLifecycleState(c: Pick<PassContext, 'set' | 'now'>, next: Pod, state: LifecycleState | undefined): Pod {
  if (!state) return next;
  const now = new Date(c.now);
  const { labels, annotations } = lifecycleStatePatch(state, now).metadata;
  next.metadata.labels = { ...next.metadata.labels, ...labels };
  next.metadata.annotations = { ...next.metadata.annotations, ...annotations };
  if (c.set.spec.lifecycle?.inPlaceUpdate?.markPodNotReady) {
    const conditions = readinessForState(next, state, now);
    // The lifecycle helpers type condition status as a plain string; the values are the API's.
    if (conditions) next.status = { ...next.status, conditions: conditions as NonNullable<Pod['status']>['conditions'] };
  }
  return next;
}

/**
 * The InPlaceUpdateReady=True write with the lifecycle move riding on it; returns the written pod,
 * or undefined when the updater found no such write to make.
 */
async function writeReadyAndState(c: PassContext, pod: Pod, tracker: RefreshTracker): Promise<Pod | undefined> {
  const state = nextRefreshState(c, pod);
  const opts = { onReady: (next: Pod) => { withLifecycleState(c, next, state); } };
  const r = podCondition(pod, InPlaceUpdateReadyCondition) ? await c.updater.refresh(pod, opts) : await c.updater.markReadyIfMissing(pod, opts);
  if (r.error) throw r.error;
  if (!r.pod) return undefined;
  c.podWrites.expectUpdated(objectKey(pod), r.pod);
  if (state && podLifecycleState(pod) !== state) tracker.changed = true;
  return r.pod;
}

/** In-place refresh, then lifecycle, once per pod and pass. Returns the pod as last written (else as given). */
export async function refreshPod(c: PassContext, pod: Pod, tracker: RefreshTracker): Promise<Pod> {
  const name = pod.metadata.name!;
  if (tracker.seen.has(name)) return pod;
  tracker.seen.add(name);
  const plan = planRefresh(pod, new Date(c.now));
  if (plan.kind === 'updateStatus') {
    const written = await writeReadyAndState(c, pod, tracker);
    if (written) return written;
  } else if (plan.kind === 'none') {
    requeueAfter(c, plan.requeueAfterMs);
  } else {
    const r = await c.updater.refresh(pod);
    if (r.error) throw r.error;
    requeueAfter(c, r.requeueAfterMs);
    // The write's resourceVersion is not returned: wait for any copy newer than the one judged.
    const rv = pod.metadata.resourceVersion ?? '';
    if (/^\d+$/.test(rv)) c.podWrites.expectUpdated(objectKey(pod), { metadata: { resourceVersion: String(BigInt(rv) + 1n) } });
  }
  const state = nextRefreshState(c, pod);
  if (!state) return pod;
  const markPodNotReady = !!c.set.spec.lifecycle?.inPlaceUpdate?.markPodNotReady;
  if (await setLifecycleState(c, pod, state, markPodNotReady)) tracker.changed = true;
  return pod;
}
