/**
 * Per-ordinal PersistentVolumeClaims and the retention policy as owner references the garbage
 * collector acts on (docs/design/advanced-statefulset.md §4): whenDeleted=Delete → the set owns the claim;
 * whenScaled=Delete → a condemned pod owns it (the claim goes with the pod). Both references are
 * plain (not controller) ones, as in k8s. A claim still owned by an older pod of the same name is
 * stale and blocks creating the new pod until the collector removes it.
 */
import type { OwnerReference } from '../../api/meta.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { claimName } from './identity.js';
import type { Claim, StatefulSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export const claimTemplates = (set: StatefulSet): ClaimTemplate[] => (set.spec.volumeClaimTemplates ?? []) as ClaimTemplate[];

export interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

/** The set's policy; without gate StatefulSetAutoDeletePVC owner references are left alone (undefined). */
export function retentionPolicy(set: StatefulSet, autoDeletePVC: boolean): RetentionPolicy | undefined {
  if (!autoDeletePVC) return undefined;
  const p = set.spec.persistentVolumeClaimRetentionPolicy ?? {};
  return { whenDeleted: p.whenDeleted ?? 'Retain', whenScaled: p.whenScaled ?? 'Retain' };
}

const setRef = (set: StatefulSet): OwnerReference => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: set.metadata.name!, uid: set.metadata.uid! });
const podRef = (pod: Pod): OwnerReference => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid! });

/** Which of the set and the pod should own the pod's claims. */
export function wantedOwners(policy: RetentionPolicy, condemned: boolean): { set: boolean; pod: boolean } {
  const scaledDelete = policy.whenScaled === 'Delete';
  const deletedDelete = policy.whenDeleted === 'Delete';
  if (scaledDelete && condemned) return { set: false, pod: true };
  return { set: deletedDelete, pod: false };
}

/** The claim's owner references under the policy, or undefined when they already conform. */
export function claimOwnersUpdate(claim: Claim, set: StatefulSet, pod: Pod, policy: RetentionPolicy, condemned: boolean): OwnerReference[] | undefined {
  const want = wantedOwners(policy, condemned);
  const refs = claim.metadata.ownerReferences ?? [];
  const isSet = (r: OwnerReference) => r.uid === set.metadata.uid;
  const isPod = (r: OwnerReference) => !!pod.metadata.uid && r.uid === pod.metadata.uid;
  let next = refs.filter((r) => !(isSet(r) && !want.set) && !(isPod(r) && !want.pod));
  if (want.set && !next.some(isSet)) next = [...next, setRef(set)];
  if (want.pod && pod.metadata.uid && !next.some(isPod)) next = [...next, podRef(pod)];
  return deepEqual(next, refs) ? undefined : next;
}

/** A reference to a pod of this name but another UID (or to any such pod when `pod` has no UID yet). */
export function isStaleClaim(claim: Claim, pod: Pod): boolean {
  return (claim.metadata.ownerReferences ?? []).some((r) => r.kind === 'Pod' && r.name === pod.metadata.name && r.uid !== pod.metadata.uid);
}

/** The claim of `ordinal` from `template`: claim labels plus the selector's matchLabels. */
export function newClaim(set: StatefulSet, template: ClaimTemplate, ordinal: number, policy: RetentionPolicy | undefined): Claim {
  const meta = template.metadata ?? {};
  const owners = policy && wantedOwners(policy, false).set ? [setRef(set)] : [];
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(meta.name ?? '', set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...meta.labels, ...set.spec.selector.matchLabels },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(owners.length > 0 ? { ownerReferences: owners } : {}),
    },
    spec: structuredClone(template.spec ?? {}),
  };
}
