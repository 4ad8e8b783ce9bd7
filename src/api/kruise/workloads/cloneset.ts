/**
 * CloneSet (apps.kruise.io, short name `clone`): v1alpha1 and v1beta1 (storage). v1beta1 moved the
 * flat v1alpha1 update fields under `updateStrategy.rollingUpdate` (docs/design/kruise-api.md §3, §7).
 */
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { IntOrString, PersistentVolumeClaimTemplate, PodTemplateSpec } from '../common.js';
import { defineKind, type KindVersion, type PrinterColumn } from '../define-kind.js';
import {
  ageColumn, containerColumns, InPlaceUpdateStrategy, Int32, Int64, intColumn, Lifecycle, objectSchema,
  scaleSubresource, Selector, UpdatePriorityStrategy, UpdateScatterStrategy, workloadCondition, type WorkloadObject,
} from './schema-parts.js';

/** 5-char id shared by a pod and its PVCs. */
export const CloneSetInstanceIdLabel = 'apps.kruise.io/cloneset-instance-id';
/** Bare revision hash on CloneSet pods (suffix after the last `-` of the revision name). */
export const PodTemplateHashLabel = 'pod-template-hash';
/** v1alpha1-era label: "true" converts to v1beta1 scaleStrategy.excludePreparingDelete. */
export const CloneSetScalingExcludePreparingDeleteLabel = 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
/** ControllerRevision annotation with the hash of volumeClaimTemplates. */
export const CloneSetVolumeClaimTemplateHashAnnotation = 'kruise.io/cloneset-volumeclaimtemplate-hash';
export const DefaultCloneSetMaxUnavailable = '20%';
/** progressDeadlineSeconds value that disables the Progressing condition. */
export const CloneSetProgressDeadlineDisabled = 2147483647;

/** Update fields that are flat in v1alpha1 and under rollingUpdate in v1beta1. */
const rollingFields = {
  partition: Type.Optional(IntOrString),
  maxUnavailable: Type.Optional(IntOrString),
  maxSurge: Type.Optional(IntOrString),
  paused: Type.Optional(Type.Boolean()),
  priorityStrategy: Type.Optional(UpdatePriorityStrategy),
  scatterStrategy: Type.Optional(UpdateScatterStrategy),
};

function cloneSetSpec<U extends TObject, S extends TObject>(updateStrategy: U, scaleStrategy: S) {
  return Type.Object({
    replicas: Type.Optional(Int32()),
    selector: Selector,
    template: PodTemplateSpec,
    volumeClaimTemplates: Type.Optional(Type.Array(PersistentVolumeClaimTemplate)),
    scaleStrategy: Type.Optional(scaleStrategy),
    updateStrategy: Type.Optional(updateStrategy),
    revisionHistoryLimit: Type.Optional(Int32()),
    minReadySeconds: Type.Optional(Int32()),
    lifecycle: Type.Optional(Lifecycle),
    progressDeadlineSeconds: Type.Optional(Int32()),
  });
}

export const CloneSetV1alpha1Spec = cloneSetSpec(
  Type.Object({ type: Type.Optional(Type.String()), ...rollingFields, inPlaceUpdateStrategy: Type.Optional(InPlaceUpdateStrategy) }),
  Type.Object({
    podsToDelete: Type.Optional(Type.Array(Type.String())),
    maxUnavailable: Type.Optional(IntOrString),
    disablePVCReuse: Type.Optional(Type.Boolean()),
  }),
);

/** v1beta1 carries the image pre-download tuning as fields (v1alpha1 uses annotations). */
export const CloneSetInPlaceUpdateStrategy = Type.Object({
  gracePeriodSeconds: Type.Optional(Int32()),
  imagePreDownloadParallelism: Type.Optional(IntOrString),
  imagePreDownloadTimeoutSeconds: Type.Optional(Int32()),
  imagePreDownloadMinUpdatedReadyPods: Type.Optional(Int32()),
});

export const CloneSetRollingUpdate = Type.Object({
  podUpdatePolicy: Type.Optional(Type.String()),
  ...rollingFields,
  inPlaceUpdateStrategy: Type.Optional(CloneSetInPlaceUpdateStrategy),
});

export const CloneSetSpec = cloneSetSpec(
  Type.Object({ type: Type.Optional(Type.String()), rollingUpdate: Type.Optional(CloneSetRollingUpdate) }),
  Type.Object({
    podsToDelete: Type.Optional(Type.Array(Type.String())),
    maxUnavailable: Type.Optional(IntOrString),
    // Declared by the v1beta1 CRD; a v1alpha1 write converts disablePVCReuse (absent = reuse) instead.
    enablePVCReuse: Type.Optional(Type.Boolean({ default: false })),
    excludePreparingDelete: Type.Optional(Type.Boolean()),
  }),
);

/** Identical in both versions. */
export const CloneSetStatus = Type.Object({
  observedGeneration: Type.Optional(Int64()),
  replicas: Int32(),
  readyReplicas: Int32(),
  availableReplicas: Int32(),
  updatedReplicas: Int32(),
  updatedReadyReplicas: Int32(),
  updatedAvailableReplicas: Type.Optional(Int32()),
  expectedUpdatedReplicas: Type.Optional(Int32()),
  updateRevision: Type.Optional(Type.String()),
  currentRevision: Type.Optional(Type.String()),
  collisionCount: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(workloadCondition(true))),
  labelSelector: Type.Optional(Type.String()),
});

export const CloneSetV1alpha1Schema = objectSchema(CloneSetV1alpha1Spec, CloneSetStatus);
export const CloneSetSchema = objectSchema(CloneSetSpec, CloneSetStatus);

export type CloneSetV1alpha1 = WorkloadObject<typeof CloneSetV1alpha1Schema>;
export type CloneSet = WorkloadObject<typeof CloneSetSchema>;
export type CloneSetStatus = Static<typeof CloneSetStatus>;
export type CloneSetCondition = NonNullable<CloneSetStatus['conditions']>[number];

export const cloneSetPrinterColumns: PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'The desired number of pods.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'The number of pods updated.'),
  intColumn('UPDATED_READY', '.status.updatedReadyReplicas', 'The number of pods updated and ready.'),
  intColumn('UPDATED_AVAILABLE', '.status.updatedAvailableReplicas', 'The number of pods updated and available.'),
  intColumn('READY', '.status.readyReplicas', 'The number of pods ready.'),
  intColumn('TOTAL', '.status.replicas', 'The number of currently all pods.'),
  ageColumn(),
  ...containerColumns('cloneset'),
  { name: 'SELECTOR', type: 'string', priority: 1, jsonPath: '.status.labelSelector', description: 'The selector of currently cloneset.' },
];

function version(name: string, storage: boolean, schema: KindVersion['schema']): KindVersion {
  return { name, served: true, storage, schema, printerColumns: cloneSetPrinterColumns, subresources: { status: true, scale: scaleSubresource } };
}

export const cloneSetKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'CloneSet',
  plural: 'clonesets',
  singular: 'cloneset',
  shortNames: ['clone'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false, CloneSetV1alpha1Schema), version('v1beta1', true, CloneSetSchema)],
});
