/**
 * The scale phase of a CloneSet pass (docs/design/cloneset.md §8): cancel PreparingDelete when replicas
 * grow back, create missing pods (current-revision ones first, orphan claims' ids first), remove
 * PreparingDelete and specified pods, then surplus pods, under the budgets of docs/design/cloneset.md §7. "Remove"
 * honours the preDelete hook: a hooked pod moves to PreparingDelete and waits until unhooked.
 * Every create/delete is expected first so the next pass waits for the cache.
 */
import { objectKey } from '../../api/meta.js';
import { CloneSetInstanceIdLabel } from '../../api/kruise/workloads/cloneset.js';
import { PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import { deleteDecision, LifecycleState } from '../../control/lifecycle/index.js';
import { deletePodExpected, slowStartBatch } from '../../control/podcontrol/index.js';
import { choosePodsToDelete, spreadConstraintsFromPodSpec, type PodSpreadConstraint } from '../../control/updatesort/index.js';
import { isAlreadyExists } from '../../machinery/errors.js';
import { deleteClaim, idsForNewPods } from './claims.js';
import { readyDeleteBudget, type Diffs } from './numbers.js';
import { podRevisionLabels, type PassContext } from './pass.js';
import { movePodToState } from './pod-state.js';
import { isPreDeleting, isToDelete, newCloneSetPod } from './pods.js';
import { podsToCancelDelete, withinDeleteBudget } from './scale-plan.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Returns true when it changed anything (the pass then ends after status). */
export async function scalePhase(c: PassContext, diffs: Diffs, current: ControllerRevision, update: ControllerRevision): Promise<boolean> {
  const { cs, pods } = c;
  let cancelled = false;
  for (const pod of podsToCancelDelete(cs, pods)) cancelled = (await movePodToState(c, pod, LifecycleState.PreparingNormal)) || cancelled;
  if (cancelled) return true;
  if (diffs.scaleUpNum > diffs.scaleUpLimit) {
    c.events.event(cs, 'Warning', 'ScaleUpLimited', `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diffs.scaleUpLimit}`);
  }
  if (diffs.scaleUpNum > 0) {
    const oldCount = Math.min(diffs.scaleUpNumOld, diffs.scaleUpLimit);
    const revisions = Array.from({ length: diffs.scaleUpLimit }, (_, i) => (i < oldCount ? current : update));
    return (await createPods(c, revisions)) > 0;
  }
  const preDeleting = pods.filter(isPreDeleting);
  if (preDeleting.length > 0 && (await removePods(c, preDeleting))) return true;
  const specified = pods.filter((p) => isToDelete(p, cs) && !isPreDeleting(p));
  const budget = { left: readyDeleteBudget(diffs.deleteReadyLimit, specified.filter((p) => !c.isAvailable(p)).length) };
  if (specified.length > 0 && (await removePods(c, withinDeleteBudget(specified, c.isAvailable, budget)))) return true;
  if (diffs.scaleDownNum <= 0 || specified.length > 0 || preDeleting.length > 0) return false;
  const chosen = choosePodsToDelete(pods, diffs.scaleDownNum, {
    isUpdated: c.isUpdated, oldDiff: Math.min(diffs.scaleDownNumOld, diffs.scaleDownNum), isAvailable: c.isAvailable,
    ...spreadOptions(c),
  });
  return removePods(c, withinDeleteBudget(chosen, c.isAvailable, budget));
}

/** Topology spread constraints of the template rank victims when node labels are known. */
function spreadOptions(c: PassContext): { spreadConstraints?: PodSpreadConstraint[]; nodeLabels?: (node: string) => Record<string, string> | undefined } {
  const constraints = spreadConstraintsFromPodSpec(c.cs.spec.template.spec as { topologySpreadConstraints?: { topologyKey: string }[] } | undefined);
  return constraints.length > 0 && c.nodeLabels ? { spreadConstraints: constraints, nodeLabels: c.nodeLabels } : {};
}

/** Creates pods for `revisions` (fewer when an id waits for its terminating pod); returns how many were created. */
async function createPods(c: PassContext, revisions: ControllerRevision[]): Promise<number> {
  const ids = idsForNewPods(revisions.length, c.owned, c.claims);
  const work = ids.map((id, i) => ({ id, revision: revisions[i]! }));
  const { successes, error } = await slowStartBatch(work.length, 1, (i) => createOne(c, work[i]!.revision, work[i]!.id));
  // created pods stay expected; the error ends the pass like a scale (FailedScale, requeue)
  if (error !== undefined) throw error;
  return successes;
}

async function createOne(c: PassContext, revision: ControllerRevision, id: string): Promise<void> {
  const { pod, claims } = newCloneSetPod(c.cs, revision, id, new Date(c.now), podRevisionLabels(c));
  const existing = new Set(c.claims.map((claim) => claim.metadata.name));
  for (const claim of claims.filter((cl) => !existing.has(cl.metadata.name))) {
    const claimName = claim.metadata.name!;
    c.expectations.expect(c.key, 'create', claimName);
    try {
      await c.client.create(PersistentVolumeClaims, claim);
    } catch (e) {
      c.expectations.observe(c.key, 'create', claimName);
      if (isAlreadyExists(e)) continue;
      c.events.event(c.cs, 'Warning', 'FailedCreate', `failed to create pvc: ${messageOf(e)}`);
      throw e;
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

/**
 * Removes each pod per the preDelete hook: a hooked pod moves to PreparingDelete (or, already
 * there, waits), others are deleted with their claims. Returns true when anything changed.
 */
async function removePods(c: PassContext, victims: Pod[]): Promise<boolean> {
  const hook = c.cs.spec.lifecycle?.preDelete;
  const results = await Promise.allSettled(victims.map(async (pod) => {
    switch (deleteDecision(pod, c.cs.spec.lifecycle)) {
      case 'enterPreparingDelete': return movePodToState(c, pod, LifecycleState.PreparingDelete, { markNotReady: hook?.markPodNotReady ?? false });
      // still hooked: keep the not-ready entry in place (a restart may have lost it), change nothing else
      case 'wait': return movePodToState(c, pod, LifecycleState.PreparingDelete, { markNotReady: hook?.markPodNotReady ?? false });
      case 'delete': return deleteOne(c, pod);
    }
  }));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.some((r) => r.status === 'fulfilled' && r.value);
}

async function deleteOne(c: PassContext, pod: Pod): Promise<boolean> {
  const name = pod.metadata.name!;
  const deleted = await deletePodExpected(c, pod, (e) => c.events.event(c.cs, 'Warning', 'FailedDelete', `failed to delete pod ${name}: ${messageOf(e)}`));
  if (!deleted) return false;
  c.podUpdates.delete(objectKey(pod));
  c.events.event(c.cs, 'Normal', 'SuccessfulDelete', `succeed to delete pod ${name}`);
  const id = pod.metadata.labels?.[CloneSetInstanceIdLabel];
  for (const claim of id ? c.claims.filter((pvc) => pvc.metadata.labels?.[CloneSetInstanceIdLabel] === id) : []) {
    await deleteClaim(c, claim);
  }
  return true;
}
