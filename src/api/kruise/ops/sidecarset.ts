/**
 * SidecarSet (apps.kruise.io, cluster-scoped): sidecar containers injected into matching pods
 * at creation and rolled in place afterwards. v1beta1 is stored; v1alpha1 has `spec.namespace`
 * (→ namespaceSelector) and keeps the custom version in a label instead of `spec.customVersion`.
 * Container bodies and volumes are schemaless, as upstream.
 */
import { Type, type Static } from '@sinclair/typebox';
import { IntOrString } from '../common.js';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { LabelSelector, LocalObjectReference } from './core-types.js';
import { AgeColumn, Bool, Int32, Int64, Opt, OpenObject, Schemaless, Str, StrEnum, StringMap, kindObject } from './schema.js';

export * from './sidecarset-keys.js';

const PolicyType = Type.Object({ type: Opt(Str()) });
const ResourceExprValues = Type.Object({ cpu: Opt(Str()), memory: Opt(Str()) });

/** A core Container (schemaless) plus Kruise's injection fields. */
export const SidecarContainer = OpenObject({
  name: Str(),
  podInjectPolicy: Opt(Type.Unsafe<'BeforeAppContainer' | 'AfterAppContainer'>(Str())),
  resourcesPolicy: Opt(Type.Object({
    resourcesExpr: Opt(Type.Object({ limits: Opt(ResourceExprValues), requests: Opt(ResourceExprValues) })),
    targetContainersMode: Opt(Type.Unsafe<'sum' | 'max'>(Str())),
    targetContainersNameRegex: Opt(Str()),
  })),
  shareVolumeDevicePolicy: Opt(PolicyType),
  shareVolumePolicy: Opt(PolicyType),
  transferEnv: Opt(Type.Array(Type.Object({
    envName: Opt(Str()),
    envNames: Opt(Type.Array(Str())),
    sourceContainerName: Opt(Str()),
    sourceContainerNameFrom: Opt(Type.Object({
      fieldRef: Opt(Type.Object({ apiVersion: Opt(Str()), fieldPath: Str() }, { 'x-kubernetes-map-type': 'atomic' })),
    })),
  }))),
  upgradeStrategy: Opt(Type.Object({
    hotUpgradeEmptyImage: Opt(Str()),
    upgradeType: Opt(Type.Unsafe<'ColdUpgrade' | 'HotUpgrade'>(Str())),
  })),
});
export type SidecarContainer = Static<typeof SidecarContainer>;

export const SidecarSetUpdateStrategy = Type.Object({
  maxUnavailable: Opt(IntOrString),
  partition: Opt(IntOrString),
  paused: Opt(Bool()),
  priorityStrategy: Opt(Type.Object({
    orderPriority: Opt(Type.Array(Type.Object({ orderedKey: Str() }))),
    weightPriority: Opt(Type.Array(Type.Object({ matchSelector: LabelSelector, weight: Int32() }))),
  })),
  scatterStrategy: Opt(Type.Array(Type.Object({ key: Str(), value: Str() }))),
  selector: Opt(LabelSelector),
  type: Opt(Type.Unsafe<'NotUpdate' | 'RollingUpdate'>(Str())),
});

export const SidecarSetInjectionStrategy = Type.Object({
  paused: Opt(Bool()),
  revision: Opt(Type.Object({
    customVersion: Opt(Str()),
    // Upstream's CRD declares both the enum and the default.
    policy: Opt(StrEnum(['Always', 'Partial'] as const, { default: 'Always' })),
    revisionName: Opt(Str()),
  })),
});

const specProps = {
  containers: Opt(Type.Array(SidecarContainer)),
  imagePullSecrets: Opt(Type.Array(LocalObjectReference)),
  initContainers: Opt(Type.Array(SidecarContainer)),
  injectionStrategy: Opt(SidecarSetInjectionStrategy),
  namespaceSelector: Opt(LabelSelector),
  patchPodMetadata: Opt(Type.Array(Type.Object({
    annotations: Opt(StringMap()),
    patchPolicy: Opt(Type.Unsafe<'Retain' | 'Overwrite' | 'MergePatchJson'>(Str())),
  }))),
  revisionHistoryLimit: Opt(Int32()),
  selector: Opt(LabelSelector),
  updateStrategy: Opt(SidecarSetUpdateStrategy),
  /** corev1.Volume list, validated with the fake pod by the webhook. */
  volumes: Opt(Schemaless<Record<string, unknown>[]>()),
};

export const SidecarSetStatus = Type.Object({
  collisionCount: Opt(Int32()),
  latestRevision: Opt(Str()),
  matchedPods: Int32(),
  observedGeneration: Opt(Int64()),
  readyPods: Int32(),
  updatedPods: Int32(),
  updatedReadyPods: Opt(Int32()),
});

export const SidecarSetSchemaV1alpha1 = kindObject(Type.Object({ ...specProps, namespace: Opt(Str()) }), SidecarSetStatus);
export const SidecarSetSchemaV1beta1 = kindObject(Type.Object({ ...specProps, customVersion: Opt(Str()) }), SidecarSetStatus);
export type SidecarSetV1alpha1 = Static<typeof SidecarSetSchemaV1alpha1>;
/** The hub version. */
export type SidecarSet = Static<typeof SidecarSetSchemaV1beta1>;
export type SidecarSetSpec = NonNullable<SidecarSet['spec']>;

const columns: PrinterColumn[] = [
  { name: 'MATCHED', type: 'integer', jsonPath: '.status.matchedPods', description: 'The number of pods matched.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedPods', description: 'The number of pods matched and updated.' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyPods', description: 'The number of pods matched and ready.' },
  AgeColumn,
];

export const sidecarSetKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  singular: 'sidecarset',
  scope: 'Cluster',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: SidecarSetSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: SidecarSetSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
