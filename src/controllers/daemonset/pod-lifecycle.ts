/**
 * The preDelete hook on daemon pods (docs/design/inplace-update.md §9, docs/design/advanced-daemonset.md §7): a hooked pod chosen for
 * deletion moves to `PreparingDelete` (with markPodNotReady, the `KruisePodReady` entry goes in
 * first through pods/status) and is deleted by a later pass once unhooked. Each write is recorded as
 * a resourceVersion expectation.
 */
import { objectKey } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import {
  deleteDecision, lifecycleStatePatch, LifecycleState, podLifecycleState, readinessForState, writeReadinessForState,
} from '../../control/lifecycle/index.js';
import { isNotFound } from '../../machinery/errors.js';
import { throwFirstFailure, type PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';


/** The pods that may be deleted now; hooked ones are moved to (or kept in) PreparingDelete. */
export async function podsToDeleteAfterHook(c: PassContext, pods: Pod[]): Promise<Pod[]> {
  const lifecycle = c.ds.spec.lifecycle;
  if (!lifecycle?.preDelete) return pods;
  const deletable: Pod[] = [];
  const holds: Pod[] = [];
  for (const pod of pods) (deleteDecision(pod, lifecycle) === 'delete' ? deletable : holds).push(pod);
  throwFirstFailure(await Promise.allSettled(holds.map((pod) => moveToPreparingDelete(c, pod))));
  return deletable;
}

async function moveToPreparingDelete(c: PassContext, pod: Pod): Promise<void> {
  const now = new Date(c.now);
  const state = LifecycleState.PreparingDelete;
  if (c.ds.spec.lifecycle?.preDelete?.markPodNotReady && readinessForState(pod, state, now)) await markNotReady(c, pod, now);
  if (podLifecycleState(pod) === state) return;
  try {
    const patched = await c.client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', lifecycleStatePatch(state, now));
    c.podUpdates.expectUpdated(objectKey(pod), patched);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

async function markNotReady(c: PassContext, pod: Pod, now: Date): Promise<void> {
  const written = await writeReadinessForState(c.client, pod, LifecycleState.PreparingDelete, now);
  if (written) c.podUpdates.expectUpdated(objectKey(pod), written);
}
