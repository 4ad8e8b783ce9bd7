/**
 * Moving a pod between lifecycle states (upstream lifecycle.UpdatePodLifecycle): with
 * markPodNotReady the `KruisePodReady` not-ready key of the state is written first through the
 * status subresource (re-read on conflict); then a strategic-merge patch sets the state label and
 * timestamp (re-applying a hook's labels/finalizers when going back to PreparingUpdate).
 */
import { objectKey } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { retryOnConflict } from '../../client/retry.js';
import { isNotFound } from '../../machinery/errors.js';
import {
  lifecycleStatePatch, podLifecycleState, readinessForState, type LifecycleHook, type LifecycleState,
} from '../../control/lifecycle/index.js';
import { type PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';

async function markNotReady(c: PassContext, pod: Pod, state: LifecycleState): Promise<void> {
  const now = new Date(c.now);
  if (!readinessForState(pod, state, now)) return;
  await retryOnConflict(async () => {
    const fresh = await c.client.get<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!);
    const conditions = readinessForState(fresh, state, now);
    if (!conditions) return;
    // The lifecycle helpers type condition status as a plain string; the values are the API's.
    const typed = conditions as NonNullable<Pod['status']>['conditions'];
    const written = await c.client.updateStatus<Pod>(Pods, { ...fresh, status: { ...fresh.status, conditions: typed } });
    c.podWrites.expectUpdated(objectKey(pod), written);
  });
}

/** Returns true when the state label was changed. */
export async function setLifecycleState(
  c: PassContext, pod: Pod, state: LifecycleState, markPodNotReady: boolean, handler?: LifecycleHook,
): Promise<boolean> {
  try {
    if (markPodNotReady) await markNotReady(c, pod, state);
    if (podLifecycleState(pod) === state && !handler) return false;
    const patch = lifecycleStatePatch(state, new Date(c.now), handler);
    const patched = await c.client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', patch);
    c.podWrites.expectUpdated(objectKey(pod), patched);
    return true;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}
