/**
 * The scale phase of a CloneSet pass (workloads.md §4.6.3): create missing pods (current-revision
 * ones first), delete specified/PreparingDelete pods, then surplus pods, under the budgets of
 * §4.6.2. Every create/delete is expected first so the next pass waits for the cache.
 * Not yet: PreparingDelete cancel, preDelete hooks (pods are deleted directly), PVC reuse.
 */
import { CloneSetInstanceIdLabel } from '../../api/kruise/workloads/cloneset.js';
import { Pods, PersistentVolumeClaims } from '../../api/resource-type.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { ControllerRevision } from '../../control/revision/index.js';
import type { Diffs } from './numbers.js';
import { isPreDeleting, isToDelete, newCloneSetPod, newInstanceIds, type Pod } from './pods.js';
import { choosePodsToDelete } from '../../control/updatesort/index.js';
import { podKey, type PassContext } from './pass.js';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Returns true when it wrote anything (the pass then ends after status). */
export async function scalePhase(c: PassContext, diffs: Diffs, current: ControllerRevision, update: ControllerRevision): Promise<boolean> {
  const { cs, pods } = c;
  if (diffs.scaleUpNum > diffs.scaleUpLimit) {
    c.events.event(cs, 'Warning', 'ScaleUpLimited', `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diffs.scaleUpLimit}`);
  }
  if (diffs.scaleUpNum > 0 && diffs.scaleUpLimit > 0) {
    const count = diffs.scaleUpLimit;
    const oldCount = Math.min(diffs.scaleUpNumOld, count);
    const revisions = Array.from({ length: count }, (_, i) => (i < oldCount ? current : update));
    await createPods(c, revisions);
    return true;
  }
  let budget = diffs.deleteReadyLimit;
  const victims: Pod[] = [];
  const take = (pod: Pod) => {
    if (c.isAvailable(pod)) {
      if (budget <= 0) return;
      budget--;
    }
    victims.push(pod);
  };
  const preDeleting = pods.filter(isPreDeleting);
  victims.push(...preDeleting);
  for (const pod of pods.filter((p) => isToDelete(p, cs) && !isPreDeleting(p))) take(pod);
  if (victims.length > 0) {
    await deletePods(c, victims);
    return true;
  }
  if (diffs.scaleDownNum > 0) {
    const chosen = choosePodsToDelete(pods, diffs.scaleDownNum, {
      isUpdated: c.isUpdated, oldDiff: Math.min(diffs.scaleDownNumOld, diffs.scaleDownNum), isAvailable: c.isAvailable,
    });
    for (const pod of chosen) take(pod);
    if (victims.length > 0) {
      await deletePods(c, victims);
      return true;
    }
  }
  return false;
}

async function createPods(c: PassContext, revisions: ControllerRevision[]): Promise<void> {
  const taken = new Set(c.pods.map((p) => p.metadata.labels?.[CloneSetInstanceIdLabel] ?? ''));
  const ids = newInstanceIds(revisions.length, taken);
  let batch = 1;
  let next = 0;
  // Slow start: batches of 1, 2, 4, ...; stop after the first batch with a failure.
  while (next < revisions.length) {
    const slice = revisions.slice(next, next + batch).map((r, i) => ({ revision: r, id: ids[next + i] }));
    next += slice.length;
    const results = await Promise.allSettled(slice.map(({ revision, id }) => createOne(c, revision, id)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    batch *= 2;
  }
}

async function createOne(c: PassContext, revision: ControllerRevision, id: string): Promise<void> {
  const { pod, claims } = newCloneSetPod(c.cs, revision, id, new Date(c.now));
  for (const claim of claims) {
    try {
      await c.client.create(PersistentVolumeClaims, claim);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  const name = pod.metadata.name!;
  c.expectations.expect(c.key, 'create', name);
  try {
    await c.client.create(Pods, pod);
  } catch (e) {
    c.expectations.observe(c.key, 'create', name);
    c.events.event(c.cs, 'Warning', 'FailedCreate', `failed to create pod: ${messageOf(e)}`);
    throw e;
  }
  c.events.event(c.cs, 'Normal', 'SuccessfulCreate', `succeed to create pod ${name}`);
}

async function deletePods(c: PassContext, victims: Pod[]): Promise<void> {
  for (const pod of victims) c.expectations.expect(c.key, 'delete', pod.metadata.name!);
  const results = await Promise.allSettled(victims.map(async (pod) => {
    const name = pod.metadata.name!;
    try {
      await c.client.delete(Pods, pod.metadata.namespace, name, { preconditions: { uid: pod.metadata.uid } });
    } catch (e) {
      c.expectations.observe(c.key, 'delete', name);
      if (isNotFound(e)) return;
      c.events.event(c.cs, 'Warning', 'FailedDelete', `failed to delete pod ${name}: ${messageOf(e)}`);
      throw e;
    }
    c.podUpdates.delete(podKey(pod));
    c.events.event(c.cs, 'Normal', 'SuccessfulDelete', `succeed to delete pod ${name}`);
    await deleteClaimsOf(c, pod);
  }));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

async function deleteClaimsOf(c: PassContext, pod: Pod): Promise<void> {
  const id = pod.metadata.labels?.[CloneSetInstanceIdLabel];
  if (!id) return;
  for (const claim of c.claims.filter((pvc) => pvc.metadata.labels?.[CloneSetInstanceIdLabel] === id)) {
    try {
      await c.client.delete(PersistentVolumeClaims, claim.metadata.namespace, claim.metadata.name!);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
