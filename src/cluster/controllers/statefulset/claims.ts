/**
 * PersistentVolumeClaims from volumeClaimTemplates and the retention policy expressed as owner
 * references the garbage collector acts on: `whenDeleted: Delete` makes the set the claim's owner;
 * `whenScaled: Delete` makes a condemned pod the owner instead (so the claim goes with that pod).
 * Claims owned by some other controller are left alone.
 */
import type { KObject, OwnerReference } from '../../../api/meta.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { newControllerRef } from '../../../control/ownership/index.js';
import { claimName } from './identity.js';
import type { ClaimTemplate } from './types.js';
import type { Pod, StatefulSet } from '../../../api/core/index.js';

/** The set/pod owner references a claim should carry under the set's retention policy. */
export function desiredClaimOwners(set: StatefulSet, pod: Pod | undefined, condemned: boolean): OwnerReference[] {
  const policy = set.spec?.persistentVolumeClaimRetentionPolicy ?? {};
  if (condemned && policy.whenScaled === 'Delete') return pod?.metadata.uid ? [newControllerRef(pod, 'v1', 'Pod')] : [];
  if (policy.whenDeleted === 'Delete') return [newControllerRef(set, 'apps/v1', 'StatefulSet')];
  return [];
}

/**
 * The claim's owner references with the set's and pod's replaced by `desired`, or undefined when
 * nothing changes (or another controller owns the claim).
 */
export function claimOwnersUpdate(claim: KObject, set: StatefulSet, pod: Pod | undefined, desired: OwnerReference[]): OwnerReference[] | undefined {
  const refs = claim.metadata.ownerReferences ?? [];
  const ours = (r: OwnerReference) => r.uid === set.metadata.uid || (pod !== undefined && r.uid === pod.metadata.uid);
  if (refs.some((r) => r.controller && !ours(r))) return undefined;
  const next = [...refs.filter((r) => !ours(r)), ...desired];
  const key = (list: OwnerReference[]) => list.map((r) => `${r.uid}/${Boolean(r.controller)}`).sort();
  return deepEqual(key(next), key(refs)) ? undefined : next;
}

/** The claim for `ordinal` from `template`, labelled with the set's selector labels. */
export function newClaim(set: StatefulSet, template: ClaimTemplate, ordinal: number, owners: OwnerReference[]): KObject {
  const meta = template.metadata ?? {};
  const claim: KObject = {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(template, set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...meta.labels, ...set.spec?.selector?.matchLabels },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(owners.length > 0 ? { ownerReferences: owners } : {}),
    },
    spec: structuredClone(template.spec ?? {}),
  };
  return claim;
}
