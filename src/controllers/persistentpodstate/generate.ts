/**
 * PersistentPodStates generated from StatefulSet annotations (docs/design/persistentpodstate.md §4):
 * `kruise.io/auto-generate-persistent-pod-state: "true"` with a required or preferred topology
 * annotation keeps a PPS named after the workload; anything else deletes that PPS.
 */
import type { ObjectMeta } from '../../api/meta.js';
import {
  AutoGeneratePersistentPodStateAnnotation, PersistentPodAnnotationsAnnotation, PreferredPersistentTopologyAnnotation, RequiredPersistentTopologyAnnotation,
} from '../../api/kruise/ops/persistentpodstate.js';
import { PersistentPodStates } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import type { PpsObject, StatefulWorkload } from './records.js';

export const generatePrefix = 'generate#';
/** The internal key of a workload's generation request: `generate#<group>#<Kind>#<name>` (no '/': keys split on it). */
export const generateKey = (group: string, kind: string, name: string) => `${generatePrefix}${group}#${kind}#${name}`;

const split = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The spec the annotations ask for, or undefined when no PPS should exist. */
export function generatedSpec(w: StatefulWorkload, apiVersion: string): PpsObject['spec'] | undefined {
  const a = w.metadata.annotations ?? {};
  if (a[AutoGeneratePersistentPodStateAnnotation] !== 'true') return undefined;
  const required = split(a[RequiredPersistentTopologyAnnotation]);
  const preferred = split(a[PreferredPersistentTopologyAnnotation]);
  if (required.length === 0 && preferred.length === 0) return undefined;
  const annotations = split(a[PersistentPodAnnotationsAnnotation]);
  return {
    targetRef: { apiVersion, kind: 'StatefulSet', name: w.metadata.name! },
    ...(required.length > 0 && { requiredPersistentTopology: { keys: required } }),
    ...(preferred.length > 0 && { preferredPersistentTopology: [{ weight: 100, preference: { keys: preferred } }] }),
    ...(annotations.length > 0 && { persistentPodAnnotations: annotations.map((key) => ({ key })) }),
  };
}

/** Creates, updates or deletes the generated PPS of `w` (undefined: the workload is gone). */
export async function syncGenerated(client: Client, apiVersion: string, w: StatefulWorkload | undefined, existing: PpsObject | undefined): Promise<void> {
  const spec = w && !w.metadata.deletionTimestamp ? generatedSpec(w, apiVersion) : undefined;
  if (!spec) {
    // only the PPS this workload generated (owned by it): a user's PPS of the same name stays
    if (existing && existing.metadata.ownerReferences?.some((r) => r.controller && r.kind === 'StatefulSet')) {
      await client.delete(PersistentPodStates, existing.metadata.namespace, existing.metadata.name!).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
    return;
  }
  const { name, namespace } = w!.metadata;
  const owner = { apiVersion, kind: 'StatefulSet', name: name!, uid: w!.metadata.uid!, controller: true, blockOwnerDeletion: true };
  if (!existing) {
    const metadata: ObjectMeta = { name, namespace, ownerReferences: [owner] };
    await client.create(PersistentPodStates, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'PersistentPodState', metadata, spec });
    return;
  }
  if (!deepEqual(existing.spec, spec)) await client.update(PersistentPodStates, { ...existing, spec });
}
