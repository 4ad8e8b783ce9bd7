/** apps/v1 StatefulSet labels and the helpers the StatefulSet controller shares. */
import type { PersistentVolumeClaim, StatefulSet } from '../../../api/core/index.js';

/** A volumeClaimTemplates entry. */
export type ClaimTemplate = PersistentVolumeClaim;

/** On pods: the name of the ControllerRevision the pod was made from. */
export const revisionLabel = 'controller-revision-hash';
/** On ControllerRevisions: the hash part of the name (history.ControllerRevisionHashLabel). */
export const revisionHashLabel = 'controller.kubernetes.io/hash';
export const podNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';

export type RetentionPolicy = 'Retain' | 'Delete';

export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

export function isOrderedReady(set: StatefulSet): boolean {
  return (set.spec?.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
}
