/**
 * volumeClaimUpdateStrategy (docs/design/advanced-statefulset.md §10, gate StatefulSetAutoResizePVCGate): with
 * `OnPodRollingUpdate`, the claims of each pod the rolling update reaches (within the partition)
 * are expanded to the template's storage request and annotated `apps.kruise.io/owned-by-asts`;
 * `status.volumeClaims` counts per template the in-range pods whose claims request at least the
 * template's storage ("compatible") and those of them that are ready. Claims are never shrunk.
 */
import { OwnedByAstsAnnotation } from '../../api/kruise/workloads/statefulset.js';
import { PersistentVolumeClaims } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import { compareQuantities } from '../../machinery/quantity.js';
import { claimTemplates, type ClaimTemplate } from './claims.js';
import { claimName } from './identity.js';
import { ordinalOf } from './ordinals.js';
import type { PassContext } from './pass.js';
import { isCreated, isRunningAndReady } from './pod-state.js';
import type { Claim, GateReader, StatefulSet, StatefulSetStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

type VolumeClaimStatus = NonNullable<StatefulSetStatus['volumeClaims']>[number];

export const resizeEnabled = (set: StatefulSet, gate: GateReader): boolean =>
  gate('StatefulSetAutoResizePVCGate') && set.spec.volumeClaimUpdateStrategy?.type === 'OnPodRollingUpdate';

const storageOf = (spec: Record<string, unknown> | undefined): string | undefined =>
  ((spec?.resources as { requests?: Record<string, string> } | undefined)?.requests ?? {}).storage;

/** The claim requests at least the template's storage (a template without one fits any claim). */
export function claimCompatible(claim: Claim | undefined, template: ClaimTemplate): boolean {
  const want = storageOf(template.spec);
  if (want === undefined) return true;
  const have = storageOf(claim?.spec);
  try {
    return have !== undefined && compareQuantities(have, want) >= 0;
  } catch {
    return false;
  }
}

type ClaimLookup = (name: string) => Claim | undefined;

/** status.volumeClaims over the in-range pods. */
export function volumeClaimsStatus(set: StatefulSet, pods: readonly (Pod | undefined)[], lookup: ClaimLookup): VolumeClaimStatus[] {
  return claimTemplates(set).map((t) => {
    const template = t.metadata?.name ?? '';
    const out: VolumeClaimStatus = { volumeClaimName: template, compatibleReplicas: 0, compatibleReadyReplicas: 0 };
    for (const pod of pods) {
      const ordinal = pod && isCreated(pod) ? ordinalOf(set.metadata.name!, pod.metadata.name) : undefined;
      if (ordinal === undefined || !claimCompatible(lookup(claimName(template, set, ordinal)), t)) continue;
      out.compatibleReplicas++;
      if (isRunningAndReady(pod!)) out.compatibleReadyReplicas++;
    }
    return out;
  });
}

/** Expands the pod's smaller claims to the templates' storage; returns true when it wrote any. */
export async function expandClaims(c: PassContext, pod: Pod, ordinal: number): Promise<boolean> {
  let wrote = false;
  for (const t of claimTemplates(c.set)) {
    const claim = c.claims.get(c.set.metadata.namespace, claimName(t.metadata?.name ?? '', c.set, ordinal));
    const storage = storageOf(t.spec);
    if (!claim || claim.metadata.deletionTimestamp || storage === undefined || claimCompatible(claim, t)) continue;
    try {
      await c.client.patch(PersistentVolumeClaims, claim.metadata.namespace, claim.metadata.name!, 'merge', {
        metadata: { annotations: { [OwnedByAstsAnnotation]: 'true' } }, spec: { resources: { requests: { storage } } },
      });
      wrote = true;
    } catch (e) {
      if (isNotFound(e)) continue;
      c.events.event(c.set, 'Warning', 'FailedUpdate', `update Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${c.set.metadata.name} failed error: ${String(e)}`);
      throw e;
    }
  }
  return wrote;
}
