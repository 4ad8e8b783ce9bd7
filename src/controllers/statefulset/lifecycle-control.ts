/**
 * Moving a pod between lifecycle states (upstream lifecycle.UpdatePodLifecycle): with
 * markPodNotReady the `KruisePodReady` not-ready key of the state is written first through the
 * status subresource (re-read on conflict, control/lifecycle's writeReadinessForState); then a strategic-merge patch sets the state label and
 * timestamp (re-applying a hook's labels/finalizers when going back to PreparingUpdate).
 */
import { objectKey } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import {
  lifecycleStatePatch, podLifecycleState, readinessForState, writeReadinessForState, type LifecycleHook, type LifecycleState,
} from '../../control/lifecycle/index.js';
import { type PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';

async function markNotReady(c: PassContext, pod: Pod, state: LifecycleState): Promise<void> {
  const now = new Date(c.now);
  if (!readinessForState(pod, state, now)) return;
  const written = await writeReadinessForState(c.client, pod, state, now);
  if (written) c.podWrites.expectUpdated(objectKey(pod), written);
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
