/**
 * The pass's claim writes: create the missing claims of an ordinal (a terminating claim blocks
 * creating its pod), bring claim owner references in line with the retention policy, and tell
 * whether a stale claim (owned by an older pod of the same name) blocks a create.
 */
import { PersistentVolumeClaims } from '../../api/resource-type.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import { claimOwnersUpdate, claimTemplates, isStaleClaim, newClaim, retentionPolicy } from './claims.js';
import { claimName } from './identity.js';
import type { PassContext } from './pass.js';
import { messageOf, type Claim } from './types.js';
import type { Pod } from '../../api/core/index.js';

const policyOf = (c: PassContext) => retentionPolicy(c.set, c.gate('StatefulSetAutoDeletePVC'));

function claimsOf(c: PassContext, ordinal: number): { name: string; claim: Claim | undefined }[] {
  return claimTemplates(c.set).map((t) => {
    const name = claimName(t.metadata?.name ?? '', c.set, ordinal);
    return { name, claim: c.claims.get(c.set.metadata.namespace, name) };
  });
}

/** Creates missing claims; with `forCreate`, a claim being deleted is an error (its pod must wait). */
export async function ensureClaims(c: PassContext, pod: Pod, ordinal: number, forCreate: boolean): Promise<void> {
  const templates = claimTemplates(c.set);
  for (const [i, { name, claim }] of claimsOf(c, ordinal).entries()) {
    if (claim) {
      if (forCreate && claim.metadata.deletionTimestamp) throw new Error(`pvc ${name} is being deleted`);
      continue;
    }
    try {
      await c.client.create(PersistentVolumeClaims, newClaim(c.set, templates[i]!, ordinal, policyOf(c)));
    } catch (e) {
      if (isAlreadyExists(e)) continue;
      c.events.event(c.set, 'Warning', 'FailedCreate', `create Claim ${name} for Pod ${pod.metadata.name} in StatefulSet ${c.set.metadata.name} failed error: ${messageOf(e)}`);
      throw e;
    }
    c.events.event(c.set, 'Normal', 'SuccessfulCreate', `create Claim ${name} Pod ${pod.metadata.name} in StatefulSet ${c.set.metadata.name} success`);
  }
}

/** whenScaled=Delete only: some claim of the ordinal still belongs to an older pod of this name. */
export function hasStaleClaim(c: PassContext, pod: Pod, ordinal: number): boolean {
  const policy = policyOf(c);
  if (!policy || policy.whenScaled !== 'Delete') return false;
  return claimsOf(c, ordinal).some(({ claim }) => claim !== undefined && isStaleClaim(claim, pod));
}

/** The claims of the pod whose owner references differ from the policy's. */
function driftedClaims(c: PassContext, pod: Pod, ordinal: number, condemned: boolean) {
  const policy = policyOf(c);
  if (!policy || !pod.metadata.uid) return [];
  return claimsOf(c, ordinal).flatMap(({ claim }) => {
    if (!claim || claim.metadata.deletionTimestamp) return [];
    const owners = claimOwnersUpdate(claim, c.set, pod, policy, condemned);
    return owners ? [{ claim, owners }] : [];
  });
}

export const claimsMatchPolicy = (c: PassContext, pod: Pod, ordinal: number, condemned: boolean): boolean =>
  driftedClaims(c, pod, ordinal, condemned).length === 0;

export async function updateClaimOwners(c: PassContext, pod: Pod, ordinal: number, condemned: boolean): Promise<void> {
  for (const { claim, owners } of driftedClaims(c, pod, ordinal, condemned)) {
    try {
      await c.client.patch(PersistentVolumeClaims, claim.metadata.namespace, claim.metadata.name!, 'merge', {
        metadata: { ownerReferences: owners, resourceVersion: claim.metadata.resourceVersion },
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
