/**
 * Deletes an owner's pods in parallel under delete expectations: each deletion is expected before the
 * call and observed again if it fails, a pod already gone counts as deleted, and events name the pods.
 */
import type { KObject } from '../../../api/meta.js';
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import type { Pod } from '../../../api/core/index.js';

export interface DeletePodsContext {
  client: Client;
  expectations: ScaleExpectations;
  events: EventRecorder;
}

/** Throws the first failure after every deletion was attempted. */
export async function deletePods(c: DeletePodsContext, key: string, owner: KObject, pods: Pod[]): Promise<void> {
  const errors: unknown[] = [];
  await Promise.all(pods.map(async (pod) => {
    const name = pod.metadata.name!;
    c.expectations.expect(key, 'delete', name);
    try {
      await c.client.delete(Pods, pod.metadata.namespace, name, { preconditions: { uid: pod.metadata.uid } });
      c.events.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    } catch (e) {
      c.expectations.observe(key, 'delete', name);
      if (isNotFound(e)) return;
      c.events.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${(e as Error).message}`);
      errors.push(e);
    }
  }));
  if (errors.length > 0) throw errors[0];
}
