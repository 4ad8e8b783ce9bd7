/**
 * The pass's pod writes (upstream StatefulPodControl): create a pod after its missing claims,
 * delete one (or move it to PreparingDelete when a preDelete hook holds it), fix identity labels.
 * Creates and deletes are expected first so the next pass waits for the cache to show them.
 */
import { objectKey } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import { deletePodExpected } from '../../control/podcontrol/index.js';
import { deleteDecision, LifecycleState } from '../../control/lifecycle/index.js';
import { ensureClaims } from './claim-control.js';
import { setLifecycleState } from './lifecycle-control.js';
import { type PassContext } from './pass.js';
import { isTerminating } from './pod-state.js';
import { messageOf } from './types.js';
import type { Pod } from '../../api/core/index.js';

const setName = (c: PassContext) => c.set.metadata.name;

/** Creates the pod's claims, then the pod; returns the pod as the server stored it. */
export async function createPod(c: PassContext, pod: Pod, ordinal: number): Promise<Pod> {
  const name = pod.metadata.name!;
  try {
    await ensureClaims(c, pod, ordinal, true);
  } catch (e) {
    c.events.event(c.set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${setName(c)} failed error: ${messageOf(e)}`);
    throw e;
  }
  c.expectations.expect(c.key, 'create', name);
  try {
    const created = await c.client.create<Pod>(Pods, pod);
    c.events.event(c.set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${setName(c)} successful`);
    return created;
  } catch (e) {
    c.expectations.observe(c.key, 'create', name);
    c.events.event(c.set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${setName(c)} failed error: ${messageOf(e)}`);
    throw e;
  }
}

/** Deletes the pod (never one already terminating); returns false when it was already gone. */
export async function deletePod(c: PassContext, pod: Pod): Promise<boolean> {
  const name = pod.metadata.name!;
  if (isTerminating(pod) || c.deleted.has(name)) return false;
  const deleted = await deletePodExpected(c, pod, (e) => c.events.event(c.set, 'Warning', 'FailedDelete', `delete Pod ${name} in StatefulSet ${setName(c)} failed error: ${messageOf(e)}`));
  if (!deleted) return false;
  c.deleted.add(name);
  c.podWrites.delete(objectKey(pod));
  c.events.event(c.set, 'Normal', 'SuccessfulDelete', `delete Pod ${name} in StatefulSet ${setName(c)} successful`);
  return true;
}

export type DeleteOutcome = 'deleted' | 'preparingDelete' | 'waiting';

/** Deletion through the preDelete hook (docs/design/inplace-update.md §9): a hooked pod goes to PreparingDelete and waits. */
export async function deleteThroughHook(c: PassContext, pod: Pod): Promise<DeleteOutcome> {
  const lifecycle = c.set.spec.lifecycle;
  switch (deleteDecision(pod, lifecycle)) {
    case 'enterPreparingDelete':
      await setLifecycleState(c, pod, LifecycleState.PreparingDelete, !!lifecycle?.preDelete?.markPodNotReady);
      return 'preparingDelete';
    case 'wait':
      return 'waiting';
    default:
      return (await deletePod(c, pod)) ? 'deleted' : 'waiting';
  }
}

/** Rewrites drifted identity labels with a strategic-merge patch. */
export async function fixIdentity(c: PassContext, pod: Pod, labels: Record<string, string>): Promise<void> {
  const name = pod.metadata.name!;
  try {
    const patched = await c.client.patch<Pod>(Pods, pod.metadata.namespace, name, 'strategic', { metadata: { labels } });
    c.podWrites.expectUpdated(objectKey(pod), patched);
  } catch (e) {
    if (isNotFound(e)) return;
    c.events.event(c.set, 'Warning', 'FailedUpdate', `update Pod ${name} in StatefulSet ${setName(c)} failed error: ${messageOf(e)}`);
    throw e;
  }
  c.events.event(c.set, 'Normal', 'SuccessfulUpdate', `update Pod ${name} in StatefulSet ${setName(c)} successful`);
}
