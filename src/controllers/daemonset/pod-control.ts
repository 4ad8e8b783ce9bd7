/**
 * Carrying out a pass's creates and deletes (upstream syncNodes): hooked pods go to PreparingDelete
 * instead of being deleted; at most burstReplicas creates and deletes; creates run in slow-start
 * batches (1, 2, 4, ...) and stop after the first batch with a failure. Every write is recorded in
 * the expectations first (a generated name once the server returned it, unless the cache already
 * shows the pod), so the next pass waits for the cache.
 */
import { objectKey } from '../../api/meta.js';
import { createGeneratedPodExpected, deletePodExpected, slowStartBatch } from '../../control/podcontrol/index.js';
import { burstReplicas } from './budget.js';
import { messageOf, throwFirstFailure, type PassContext } from './pass.js';
import { podsToDeleteAfterHook } from './pod-lifecycle.js';
import { newDaemonPod } from './pod-template.js';
import type { Pod } from '../../api/core/index.js';

/** Returns how many creates and deletes were issued. */
export async function syncNodes(c: PassContext, toDelete: Pod[], createOn: string[], hash: string): Promise<number> {
  const deletable = await podsToDeleteAfterHook(c, dedupe(toDelete));
  const burst = burstReplicas(c.ds);
  const creates = createOn.slice(0, burst);
  const deletes = deletable.slice(0, burst);
  let createError: unknown;
  try {
    await createPods(c, creates, hash);
  } catch (e) {
    createError = e;
  }
  throwFirstFailure(await Promise.allSettled(deletes.map((pod) => deletePod(c, pod))));
  if (createError !== undefined) throw createError;
  return creates.length + deletes.length;
}

function dedupe(pods: Pod[]): Pod[] {
  const seen = new Set<string>();
  return pods.filter((p) => !seen.has(p.metadata.uid!) && seen.add(p.metadata.uid!));
}

async function createPods(c: PassContext, nodes: string[], hash: string): Promise<void> {
  const { error } = await slowStartBatch(nodes.length, 1, (i) => createPod(c, nodes[i]!, hash));
  if (error !== undefined) throw error;
}

async function createPod(c: PassContext, node: string, hash: string): Promise<void> {
  const failed = (e: unknown) => c.events.event(c.ds, 'Warning', 'FailedCreate', `Error creating: ${messageOf(e)}`);
  const created = await createGeneratedPodExpected(c, newDaemonPod(c.ds, node, hash), failed);
  c.events.event(c.ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
}

async function deletePod(c: PassContext, pod: Pod): Promise<void> {
  const name = pod.metadata.name!;
  const deleted = await deletePodExpected(c, pod, (e) => c.events.event(c.ds, 'Warning', 'FailedDelete', `Error deleting: ${messageOf(e)}`));
  if (!deleted) return;
  c.podUpdates.delete(objectKey(pod));
  c.events.event(c.ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
}
