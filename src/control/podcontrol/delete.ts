/**
 * Deleting a workload's pod the way every Kruise controller does it: under a delete expectation (so
 * the next pass waits for the informer to see it go) and with the pod's UID as precondition (so a
 * pod recreated under the same name is never hit). The callers word their own events.
 */
import type { KObject } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ScaleExpectations } from '../../runtime/expectations.js';

export interface DeleteContext {
  client: Client;
  expectations: ScaleExpectations;
  /** The owner's expectation key. */
  key: string;
}

/** True when deleted, false when it was already gone; any other error is passed to `failed`, then thrown. */
export async function deletePodExpected(c: DeleteContext, pod: KObject, failed: (e: unknown) => void): Promise<boolean> {
  const name = pod.metadata.name!;
  c.expectations.expect(c.key, 'delete', name);
  try {
    await c.client.delete(Pods, pod.metadata.namespace, name, { preconditions: { uid: pod.metadata.uid } });
    return true;
  } catch (e) {
    c.expectations.observe(c.key, 'delete', name);
    if (isNotFound(e)) return false;
    failed(e);
    throw e;
  }
}

/**
 * Deletes `pods` in parallel, each through deletePodExpected under the owner's `key`, with the
 * built-in controllers' events on `owner`; throws the first failure after every deletion was attempted.
 */
export async function deletePods(
  c: Omit<DeleteContext, 'key'> & { events: EventRecorder }, key: string, owner: KObject, pods: readonly KObject[],
): Promise<void> {
  const results = await Promise.allSettled(pods.map(async (pod) => {
    const failed = (e: unknown) => c.events.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${(e as Error).message}`);
    if (await deletePodExpected({ ...c, key }, pod, failed)) c.events.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
  }));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
