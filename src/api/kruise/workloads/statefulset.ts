/**
 * Advanced StatefulSet (apps.kruise.io StatefulSet, short names `sts` and `asts`): v1alpha1 and
 * v1beta1 (storage). v1alpha1 is the v1beta1 shape without the newer fields (docs/design/kruise-api.md §3).
 */
import { Type, type Static } from '@sinclair/typebox';
import { IntOrString, PersistentVolumeClaimTemplate, PodTemplateSpec } from '../common.js';
import { defineKind, type KindVersion, type PrinterColumn } from '../define-kind.js';
import {
  ageColumn, containerColumns, InPlaceUpdateStrategy, Int32, Int64, intColumn, Lifecycle, objectSchema,
  scaleSubresource, Selector, UpdatePriorityStrategy, workloadCondition, type WorkloadObject,
} from './schema-parts.js';

/** ASTS pod label equal to the pod name. */
export const StatefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
/** ASTS pod label with the ordinal as a decimal string (gate PodIndexLabel). */
export const PodIndexLabel = 'apps.kubernetes.io/pod-index';
/** PVC annotation set when ASTS resizes a claim (gate StatefulSetAutoResizePVCGate). */
export const OwnedByAstsAnnotation = 'apps.kruise.io/owned-by-asts';
/** Upper bound of updateStrategy.rollingUpdate.minReadySeconds. */
export const MaxMinReadySeconds = 300;

export const StatefulSetRollingUpdate = Type.Object({
  partition: Type.Optional(Int32()),
  maxUnavailable: Type.Optional(IntOrString),
  podUpdatePolicy: Type.Optional(Type.String()),
  paused: Type.Optional(Type.Boolean()),
  unorderedUpdate: Type.Optional(Type.Object({ priorityStrategy: Type.Optional(UpdatePriorityStrategy) })),
  inPlaceUpdateStrategy: Type.Optional(InPlaceUpdateStrategy),
  minReadySeconds: Type.Optional(Int32()),
});

const UpdateStrategy = Type.Object({ type: Type.Optional(Type.String()), rollingUpdate: Type.Optional(StatefulSetRollingUpdate) });

/** Fields served by both versions. */
const commonSpec = {
  replicas: Type.Optional(Int32()),
  selector: Selector,
  template: PodTemplateSpec,
  volumeClaimTemplates: Type.Optional(Type.Array(PersistentVolumeClaimTemplate)),
  serviceName: Type.Optional(Type.String()),
  podManagementPolicy: Type.Optional(Type.String()),
  updateStrategy: Type.Optional(UpdateStrategy),
  revisionHistoryLimit: Type.Optional(Int32()),
};

export const StatefulSetV1alpha1Spec = Type.Object(commonSpec);

export const StatefulSetSpec = Type.Object({
  ...commonSpec,
  volumeClaimUpdateStrategy: Type.Optional(Type.Object({ type: Type.Optional(Type.String()) })),
  /** Ordinals to skip: integers or inclusive ranges "a-b". */
  reserveOrdinals: Type.Optional(Type.Array(IntOrString)),
  lifecycle: Type.Optional(Lifecycle),
  scaleStrategy: Type.Optional(Type.Object({ maxUnavailable: Type.Optional(IntOrString) })),
  persistentVolumeClaimRetentionPolicy: Type.Optional(Type.Object({
    whenDeleted: Type.Optional(Type.String()),
    whenScaled: Type.Optional(Type.String()),
  })),
  ordinals: Type.Optional(Type.Object({ start: Type.Optional(Int32()) })),
});

const commonStatus = {
  observedGeneration: Type.Optional(Int64()),
  replicas: Int32(),
  readyReplicas: Int32(),
  availableReplicas: Int32(),
  currentReplicas: Int32(),
  updatedReplicas: Int32(),
  currentRevision: Type.Optional(Type.String()),
  updateRevision: Type.Optional(Type.String()),
  collisionCount: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(workloadCondition())),
  labelSelector: Type.Optional(Type.String()),
};

export const StatefulSetV1alpha1Status = Type.Object(commonStatus);

export const StatefulSetStatus = Type.Object({
  ...commonStatus,
  updatedReadyReplicas: Type.Optional(Int32()),
  updatedAvailableReplicas: Type.Optional(Int32()),
  volumeClaims: Type.Optional(Type.Array(Type.Object({
    volumeClaimName: Type.String(),
    compatibleReplicas: Int32(),
    compatibleReadyReplicas: Int32(),
  }))),
});

export const StatefulSetV1alpha1Schema = objectSchema(StatefulSetV1alpha1Spec, StatefulSetV1alpha1Status);
export const StatefulSetSchema = objectSchema(StatefulSetSpec, StatefulSetStatus);

export type StatefulSetV1alpha1 = WorkloadObject<typeof StatefulSetV1alpha1Schema>;
/** Advanced StatefulSet, storage version. */
export type StatefulSet = WorkloadObject<typeof StatefulSetSchema>;
export type StatefulSetSpec = Static<typeof StatefulSetSpec>;
export type StatefulSetStatus = Static<typeof StatefulSetStatus>;

export const statefulSetPrinterColumns: PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'The desired number of pods.'),
  intColumn('CURRENT', '.status.replicas', 'The number of currently all pods.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'The number of pods updated.'),
  intColumn('READY', '.status.readyReplicas', 'The number of pods ready.'),
  ageColumn(),
  ...containerColumns('advanced statefulset'),
];

function version(name: string, storage: boolean, schema: KindVersion['schema']): KindVersion {
  return { name, served: true, storage, schema, printerColumns: statefulSetPrinterColumns, subresources: { status: true, scale: scaleSubresource } };
}

/** `sts` collides with apps/v1 StatefulSet in kubectl; tests use `asts`. */
export const statefulSetKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false, StatefulSetV1alpha1Schema), version('v1beta1', true, StatefulSetSchema)],
});
