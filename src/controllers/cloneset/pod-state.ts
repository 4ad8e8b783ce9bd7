/**
 * Writing a lifecycle state on a CloneSet pod (docs/design/inplace-update.md §9): with markPodNotReady the
 * `KruisePodReady` entry goes in first (through pods/status, with conflict retry),
 * then one strategic-merge patch moves the state label and stamps the time. Each write is recorded
 * as a resourceVersion expectation, so the pod is not judged again on an older cached copy.
 */
import { objectKey } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import {
  lifecycleStatePatch, podLifecycleState, readinessForState, writeReadinessForState, type LifecycleHook, type LifecycleState,
} from '../../control/lifecycle/index.js';
import { isNotFound } from '../../machinery/errors.js';
import { type PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';

export interface MoveOptions {
  /** Add/remove the Lifecycle entry of KruisePodReady for this state (the hook's markPodNotReady). */
  markNotReady?: boolean;
  /** Re-apply this hook's labels and finalizers with the state (Updated → PreparingUpdate). */
  handler?: LifecycleHook;
  /** Other labels to fix in the same patch (e.g. pod-template-hash). */
  extraLabels?: Record<string, string>;
}

/** Returns true when the state label was changed (a condition-only write does not count). */
export async function movePodToState(c: PassContext, pod: Pod, state: LifecycleState, options: MoveOptions = {}): Promise<boolean> {
  const now = new Date(c.now);
  if (options.markNotReady && readinessForState(pod, state, now)) await writeReadiness(c, pod, state, now);
  const extra = options.extraLabels ?? {};
  if (podLifecycleState(pod) === state && Object.keys(extra).length === 0) return false;
  const patch = lifecycleStatePatch(state, now, options.handler);
  Object.assign(patch.metadata.labels, extra);
  try {
    c.podUpdates.expectUpdated(objectKey(pod), await c.client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', patch));
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
  return true;
}

async function writeReadiness(c: PassContext, pod: Pod, state: LifecycleState, now: Date): Promise<void> {
  const written = await writeReadinessForState(c.client, pod, state, now);
  if (written) c.podUpdates.expectUpdated(objectKey(pod), written);
}
