/**
 * manageReplicas: create or delete pods so a ReplicaSet owns `spec.replicas` active pods. Creates
 * go in slow-start batches (1, 2, 4, ...), at most `burstReplicas` per sync; deletes pick pods in
 * Kubernetes' ranking order. Every write is recorded in the scale expectations first (creates as
 * soon as the generated name is known), so the next sync waits for the cache to catch up.
 */
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound, StatusError } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import type { Informer } from '../../../runtime/informer.js';
import { newControllerRef } from '../../../control/ownership/index.js';
import { podFromTemplate } from '../../../control/podcontrol/pod-template.js';
import { podsToDelete } from './pod-ranking.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';
import { createGeneratedPodExpected, slowStartBatch } from '../../../control/podcontrol/index.js';

export interface ManageDeps {
  client: Client;
  pods: Informer<Pod>;
  expectations: ScaleExpectations;
  events: EventRecorder;
  burstReplicas: number;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A create refused because the namespace is going away will keep failing: not worth a retry. */
function namespaceTerminating(e: unknown): boolean {
  return e instanceof StatusError && (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

/** Returns the error that stopped scaling (the ReplicaFailure condition reports it), if any. */
export async function manageReplicas(d: ManageDeps, key: string, rs: ReplicaSet, owned: Pod[], related: Pod[], now: number): Promise<unknown> {
  const diff = owned.length - (rs.spec?.replicas ?? 1);
  if (diff < 0) return createPods(d, key, rs, Math.min(-diff, d.burstReplicas));
  if (diff > 0) return deletePods(d, key, rs, podsToDelete(owned, related, Math.min(diff, d.burstReplicas), now));
  return undefined;
}

async function createPods(d: ManageDeps, key: string, rs: ReplicaSet, count: number): Promise<unknown> {
  const ownerRef = newControllerRef(rs, 'apps/v1', 'ReplicaSet');
  const { error } = await slowStartBatch(count, 1, async () => {
    const pod = podFromTemplate({ namespace: rs.metadata.namespace!, template: rs.spec?.template, ownerRef });
    const failed = (e: unknown) => { if (!namespaceTerminating(e)) d.events.event(rs, 'Warning', 'FailedCreate', `Error creating: ${messageOf(e)}`); };
    const created = await createGeneratedPodExpected({ ...d, key }, pod, failed);
    d.events.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  });
  return error !== undefined && !namespaceTerminating(error) ? error : undefined;
}

async function deletePods(d: ManageDeps, key: string, rs: ReplicaSet, victims: Pod[]): Promise<unknown> {
  for (const pod of victims) d.expectations.expect(key, 'delete', pod.metadata.name!);
  const results = await Promise.allSettled(victims.map(async (pod) => {
    const name = pod.metadata.name!;
    try {
      await d.client.delete(Pods, pod.metadata.namespace, name, { preconditions: { uid: pod.metadata.uid } });
      d.events.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    } catch (e) {
      d.expectations.observe(key, 'delete', name); // no deletion event will come for this one
      if (isNotFound(e)) return;
      d.events.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${messageOf(e)}`);
      throw e;
    }
  }));
  return results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
}
