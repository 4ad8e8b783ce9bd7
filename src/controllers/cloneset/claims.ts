/**
 * The PVCs of a CloneSet (docs/design/cloneset.md §6, §10). Without PVC reuse, a claim whose
 * instance-id belongs to an inactive pod is handed to that pod (the garbage collector then removes
 * it with the pod) and a claim whose instance-id matches no pod is deleted. With reuse, new pods
 * take the ids of orphan claims first: the replacement of a deleted pod gets its name and claims
 * back, once the old pod is gone.
 */
import { CloneSetInstanceIdLabel } from '../../api/kruise/workloads/cloneset.js';
import type { KObject, OwnerReference } from '../../api/meta.js';
import { PersistentVolumeClaims } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import type { PassContext } from './pass.js';
import { newInstanceIds } from './pods.js';
import type { Pod } from '../../api/core/index.js';

const idOf = (o: KObject): string => o.metadata.labels?.[CloneSetInstanceIdLabel] ?? '';

export interface ClaimPlan {
  /** The claims the pass works with: those of active pods, plus orphans when reuse is on. */
  keep: KObject[];
  /** Claims to re-own by their inactive pod. */
  handOver: { claim: KObject; pod: Pod }[];
  /** Claims no pod holds. */
  remove: KObject[];
}

export function planClaims(active: readonly Pod[], inactive: readonly Pod[], claims: readonly KObject[], reuse: boolean): ClaimPlan {
  if (reuse) return { keep: [...claims], handOver: [], remove: [] };
  const activeIds = new Set(active.map(idOf).filter((id) => id !== ''));
  const inactiveById = new Map(inactive.filter((p) => idOf(p) !== '').map((p) => [idOf(p), p]));
  const plan: ClaimPlan = { keep: [], handOver: [], remove: [] };
  for (const claim of claims) {
    const pod = inactiveById.get(idOf(claim));
    if (activeIds.has(idOf(claim))) plan.keep.push(claim);
    else if (pod) plan.handOver.push({ claim, pod });
    else plan.remove.push(claim);
  }
  return plan;
}

/** Swaps the CloneSet's ownerRef for the pod's; the resourceVersion guards against a concurrent change. */
export function handOverPatch(claim: KObject, cloneSetUid: string, pod: Pod): { metadata: Record<string, unknown> } {
  const podRef: OwnerReference = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid!, controller: true, blockOwnerDeletion: true };
  const others = (claim.metadata.ownerReferences ?? []).filter((r) => r.uid !== cloneSetUid && r.uid !== pod.metadata.uid);
  return { metadata: { ownerReferences: [...others, podRef], uid: claim.metadata.uid, resourceVersion: claim.metadata.resourceVersion } };
}

export async function applyClaimPlan(c: Pick<PassContext, 'client' | 'events' | 'expectations' | 'key' | 'cs'>, plan: ClaimPlan): Promise<void> {
  for (const { claim, pod } of plan.handOver) {
    try {
      await c.client.patch(PersistentVolumeClaims, claim.metadata.namespace, claim.metadata.name!, 'merge', handOverPatch(claim, c.cs.metadata.uid!, pod));
    } catch (e) {
      if (isNotFound(e)) continue;
      c.events.event(c.cs, 'Warning', 'FailedUpdate', `failed to update PVC ${claim.metadata.name}: ${String(e)}`);
      throw e;
    }
  }
  for (const claim of plan.remove) await deleteClaim(c, claim, 'failed to clean up PVC');
}

/** Deletes one claim under a delete expectation (observed by the claims informer). */
export async function deleteClaim(c: Pick<PassContext, 'client' | 'events' | 'expectations' | 'key' | 'cs'>, claim: KObject, failure = 'failed to delete pvc'): Promise<void> {
  const name = claim.metadata.name!;
  c.expectations.expect(c.key, 'delete', name);
  try {
    await c.client.delete(PersistentVolumeClaims, claim.metadata.namespace, name, { preconditions: { uid: claim.metadata.uid } });
  } catch (e) {
    c.expectations.observe(c.key, 'delete', name);
    if (isNotFound(e)) return;
    c.events.event(c.cs, 'Warning', 'FailedDelete', `${failure} ${name}: ${String(e)}`);
    throw e;
  }
}

/**
 * Instance ids for up to `count` new pods: first the ids of claims no pod holds (sorted), then fresh
 * ones. An id whose claims belong to a pod still terminating is kept for that pod's replacement:
 * that many creations wait (the pod's deletion requeues the CloneSet), so fewer ids may come back.
 */
export function idsForNewPods(count: number, owned: readonly Pod[], claims: readonly KObject[], random: () => number = Math.random): string[] {
  const held = new Set(owned.map(idOf).filter((id) => id !== ''));
  const terminating = new Set(owned.filter((p) => p.metadata.deletionTimestamp).map(idOf));
  const claimIds = [...new Set(claims.map(idOf).filter((id) => id !== ''))].sort();
  const ids = claimIds.filter((id) => !held.has(id)).slice(0, count);
  const waiting = claimIds.filter((id) => terminating.has(id)).length;
  const fresh = Math.max(0, count - ids.length - waiting);
  return [...ids, ...newInstanceIds(fresh, new Set([...held, ...claimIds]), random)];
}
