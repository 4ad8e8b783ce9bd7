/**
 * Writes a CloneSet pass makes outside its pods: pruning `scaleStrategy.podsToDelete` names that no
 * longer match a live pod (docs/design/cloneset.md §6), and the volumeClaimTemplates hash annotation
 * of the update revision (docs/design/cloneset.md §10: changing only the claim templates makes no new revision, the
 * annotation of the existing one follows instead).
 */
import { CloneSetVolumeClaimTemplateHashAnnotation } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { RevisionOptions } from '../../control/revision/index.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { computeObjectHash } from '../../machinery/hash.js';
import type { CloneSet } from './pods.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

/** The names of `podsToDelete` still naming a live pod; undefined when nothing is to prune. */
export function podsToDeleteKept(cs: CloneSet, pods: readonly Pod[]): string[] | undefined {
  const names = cs.spec.scaleStrategy?.podsToDelete ?? [];
  const live = new Set(pods.map((p) => p.metadata.name));
  const kept = names.filter((n) => live.has(n));
  return kept.length === names.length ? undefined : kept;
}

/** Merge-patches the spec (guarded by resourceVersion); a lost race is left to the next pass. */
export async function prunePodsToDelete(client: Client, cs: CloneSet, pods: readonly Pod[]): Promise<void> {
  const kept = podsToDeleteKept(cs, pods);
  if (!kept) return;
  try {
    await client.patch(CloneSets, cs.metadata.namespace, cs.metadata.name!, 'merge', {
      metadata: { resourceVersion: cs.metadata.resourceVersion },
      spec: { scaleStrategy: { podsToDelete: kept.length > 0 ? kept : null } },
    });
  } catch (e) {
    if (!isConflict(e) && !isNotFound(e)) throw e;
  }
}

export function claimTemplateHash(cs: CloneSet): string {
  return computeObjectHash(cs.spec.volumeClaimTemplates ?? []);
}

/** New revisions carry the claim templates' hash. */
export function revisionOptions(cs: CloneSet): RevisionOptions {
  return { extraAnnotations: { [CloneSetVolumeClaimTemplateHashAnnotation]: claimTemplateHash(cs) } };
}

/** The update revision's hash annotation follows the claim templates. */
export async function syncClaimTemplateHash(client: Client, cs: CloneSet, update: ControllerRevision): Promise<void> {
  const hash = claimTemplateHash(cs);
  if (update.metadata.annotations?.[CloneSetVolumeClaimTemplateHashAnnotation] === hash) return;
  try {
    await client.patch(ControllerRevisions, update.metadata.namespace, update.metadata.name!, 'merge', {
      metadata: { annotations: { [CloneSetVolumeClaimTemplateHashAnnotation]: hash } },
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
