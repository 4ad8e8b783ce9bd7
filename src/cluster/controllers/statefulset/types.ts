/** The slices of apps/v1 StatefulSet and ControllerRevision the StatefulSet controller uses. */
import type { KObject } from '../../../api/meta.js';
import type { MetaLabelSelector } from '../../../machinery/labels.js';
import type { PodTemplateSpec } from '../shared/types.js';

/** On pods: the name of the ControllerRevision the pod was made from. */
export const revisionLabel = 'controller-revision-hash';
/** On ControllerRevisions: the hash part of the name (history.ControllerRevisionHashLabel). */
export const revisionHashLabel = 'controller.kubernetes.io/hash';
export const podNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';

export type RetentionPolicy = 'Retain' | 'Delete';

export interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector?: MetaLabelSelector;
  template?: PodTemplateSpec;
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  ordinals?: { start?: number };
  volumeClaimTemplates?: ClaimTemplate[];
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: RetentionPolicy; whenScaled?: RetentionPolicy };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  [field: string]: unknown;
}

export interface StatefulSet extends KObject {
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
}

export interface ControllerRevision extends KObject {
  data?: unknown;
  revision?: number;
}

export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

export function isOrderedReady(set: StatefulSet): boolean {
  return (set.spec?.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
}
