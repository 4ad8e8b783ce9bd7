/**
 * ResourceDistribution (apps.kruise.io, cluster-scoped, `distributor`): copies one Secret or
 * ConfigMap into a computed set of namespaces. v1beta1 is stored; v1alpha1 names the selector
 * `namespaceLabelSelector` and the condition list `failedNamespace`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { LabelSelector } from './core-types.js';
import { Bool, Int32, Int64, Opt, Str, Time, kindObject } from './schema.js';

/** Annotations on every distributed copy: lowercase hex SHA-256 of spec.resource, and the RD name. */
export const ResourceDistributionHashCodeAnnotation = 'kruise.io/resourcedistribution.resource.hashcode';
export const ResourceDistributionFromAnnotation = 'kruise.io/resourcedistribution.resource.from';

/** The six condition types, always reported in this order. */
export const ResourceDistributionConditionTypes = [
  'GetResourceFailed', 'CreateResourceFailed', 'UpdateResourceFailed', 'DeleteResourceFailed', 'ConflictOccurred', 'NamespaceNotExists',
] as const;
export type ResourceDistributionConditionType = typeof ResourceDistributionConditionTypes[number];

/** The complete object to distribute (apiVersion, kind, metadata.name, data...). */
const EmbeddedResource = Type.Unsafe<Record<string, unknown>>({
  type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
});

const NamespaceList = Type.Object({ list: Opt(Type.Array(Type.Object({ name: Opt(Str()) }))) });

const targetProps = {
  allNamespaces: Opt(Bool()),
  excludedNamespaces: Opt(NamespaceList),
  includedNamespaces: Opt(NamespaceList),
};

const conditionProps = {
  lastTransitionTime: Opt(Time()),
  reason: Opt(Str()),
  status: Type.Unsafe<'True' | 'False' | 'Unknown'>(Str()),
  type: Type.Unsafe<ResourceDistributionConditionType>(Str()),
};

function status<C extends TSchema>(condition: C) {
  return Type.Object({
    conditions: Opt(Type.Array(condition)),
    desired: Opt(Int32()),
    failed: Opt(Int32()),
    observedGeneration: Opt(Int64()),
    succeeded: Opt(Int32()),
  });
}

export const ResourceDistributionSchemaV1alpha1 = kindObject(
  Type.Object({ resource: EmbeddedResource, targets: Type.Object({ ...targetProps, namespaceLabelSelector: Opt(LabelSelector) }) }),
  status(Type.Object({ ...conditionProps, failedNamespace: Opt(Type.Array(Str())) })),
);
export const ResourceDistributionSchemaV1beta1 = kindObject(
  Type.Object({ resource: EmbeddedResource, targets: Type.Object({ ...targetProps, namespaceSelector: Opt(LabelSelector) }) }),
  status(Type.Object({ ...conditionProps, failedNamespaces: Opt(Type.Array(Str())) })),
);
export type ResourceDistributionV1alpha1 = Static<typeof ResourceDistributionSchemaV1alpha1>;
/** The hub version. */
export type ResourceDistribution = Static<typeof ResourceDistributionSchemaV1beta1>;

const columns: PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'The desired number of desired distribution and syncs.' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'The number of successful distribution and syncs.' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'The number of failed distributions and syncs.' },
];

export const resourceDistributionKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'ResourceDistribution',
  plural: 'resourcedistributions',
  singular: 'resourcedistribution',
  shortNames: ['distributor'],
  scope: 'Cluster',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: ResourceDistributionSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: ResourceDistributionSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
