/**
 * Advanced DaemonSet (apps.kruise.io DaemonSet, short names `daemon` and `ads`): v1alpha1 and
 * v1beta1 (storage). Status subresource only, no scale (docs/design/kruise-api.md §3).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IntOrString, PodTemplateSpec } from '../common.js';
import { defineKind, type KindVersion, type PrinterColumn } from '../define-kind.js';
import { ageColumn, containerColumns, Int32, Int64, intColumn, Lifecycle, objectSchema, Selector, workloadCondition, type WorkloadObject } from './schema-parts.js';

/** ADS pod label, only when the DaemonSet carries DeprecatedTemplateGenerationAnnotation. */
export const PodTemplateGenerationLabel = 'pod-template-generation';
export const DeprecatedTemplateGenerationAnnotation = 'deprecated.daemonset.template.generation';
/** v1alpha1 annotation: "true" converts to v1beta1 scaleStrategy.partitionedScaling. */
export const ProgressiveCreatePodAnnotation = 'daemonset.kruise.io/progressive-create-pod';
export const DefaultBurstReplicas = 250;
/** Values of rollingUpdate.rollingUpdateType; `Surging` is accepted by v1alpha1 only (deprecated). */
export const RollingUpdateType = { Standard: 'Standard', InPlaceIfPossible: 'InPlaceIfPossible', Surging: 'Surging' } as const;

/** v1alpha1 takes an integer partition, v1beta1 an int or percent. */
function rollingUpdate<P extends TSchema>(partition: P) {
  return Type.Object({
    rollingUpdateType: Type.Optional(Type.String()),
    maxUnavailable: Type.Optional(IntOrString),
    maxSurge: Type.Optional(IntOrString),
    /** Nodes whose pods are updated. */
    selector: Type.Optional(Selector),
    partition: Type.Optional(partition),
    paused: Type.Optional(Type.Boolean()),
  });
}

export const DaemonSetV1alpha1RollingUpdate = rollingUpdate(Int32());
export const DaemonSetRollingUpdate = rollingUpdate(IntOrString);

const commonSpec = {
  selector: Selector,
  template: PodTemplateSpec,
  minReadySeconds: Type.Optional(Int32()),
  burstReplicas: Type.Optional(IntOrString),
  revisionHistoryLimit: Type.Optional(Int32()),
  /** Only preDelete is supported (the webhook rejects inPlaceUpdate). */
  lifecycle: Type.Optional(Lifecycle),
};

export const DaemonSetV1alpha1Spec = Type.Object({
  ...commonSpec,
  updateStrategy: Type.Optional(Type.Object({ type: Type.Optional(Type.String()), rollingUpdate: Type.Optional(DaemonSetV1alpha1RollingUpdate) })),
});

export const DaemonSetSpec = Type.Object({
  ...commonSpec,
  updateStrategy: Type.Optional(Type.Object({ type: Type.Optional(Type.String()), rollingUpdate: Type.Optional(DaemonSetRollingUpdate) })),
  scaleStrategy: Type.Optional(Type.Object({ partitionedScaling: Type.Optional(Type.Boolean()) })),
});

const commonStatus = {
  currentNumberScheduled: Int32(),
  numberMisscheduled: Int32(),
  desiredNumberScheduled: Int32(),
  numberReady: Int32(),
  observedGeneration: Type.Optional(Int64()),
  updatedNumberScheduled: Int32(),
  numberAvailable: Type.Optional(Int32()),
  numberUnavailable: Type.Optional(Int32()),
  collisionCount: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(workloadCondition())),
};

/** v1alpha1 `daemonSetHash` (always written) is v1beta1 `updateRevision`: the bare revision hash. */
export const DaemonSetV1alpha1Status = Type.Object({ ...commonStatus, daemonSetHash: Type.String() });
export const DaemonSetStatus = Type.Object({ ...commonStatus, updateRevision: Type.Optional(Type.String()) });

export const DaemonSetV1alpha1Schema = objectSchema(DaemonSetV1alpha1Spec, DaemonSetV1alpha1Status);
export const DaemonSetSchema = objectSchema(DaemonSetSpec, DaemonSetStatus);

export type DaemonSetV1alpha1 = WorkloadObject<typeof DaemonSetV1alpha1Schema>;
/** Advanced DaemonSet, storage version. */
export type DaemonSet = WorkloadObject<typeof DaemonSetSchema>;
export type DaemonSetSpec = Static<typeof DaemonSetSpec>;
export type DaemonSetStatus = Static<typeof DaemonSetStatus>;

export const daemonSetPrinterColumns: PrinterColumn[] = [
  intColumn('DESIRED', '.status.desiredNumberScheduled', 'The desired number of pods.'),
  intColumn('CURRENT', '.status.currentNumberScheduled', 'The current number of pods.'),
  intColumn('READY', '.status.numberReady', 'The ready number of pods.'),
  intColumn('UP-TO-DATE', '.status.updatedNumberScheduled', 'The updated number of pods.'),
  intColumn('AVAILABLE', '.status.numberAvailable', 'The available number of pods.'),
  ageColumn(),
  ...containerColumns('advanced daemonset'),
];

function version(name: string, storage: boolean, schema: KindVersion['schema']): KindVersion {
  return { name, served: true, storage, schema, printerColumns: daemonSetPrinterColumns, subresources: { status: true } };
}

export const daemonSetKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false, DaemonSetV1alpha1Schema), version('v1beta1', true, DaemonSetSchema)],
});
