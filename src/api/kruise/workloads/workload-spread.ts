/**
 * WorkloadSpread (apps.kruise.io, short name `ws`): spreads the pods of one workload over ordered
 * node subsets. v1alpha1 and v1beta1 (storage); v1beta1 renames the subset node selectors and uses
 * metav1.Condition for subset conditions (docs/design/kruise-api.md §4, §1). Status subresource only.
 */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { FreeForm, IntOrString } from '../common.js';
import { defineKind, type KindVersion, type PrinterColumn } from '../define-kind.js';
import {
  Int32, Int64, MetaCondition, objectSchema, RawExtension, Selector, stringEnum, TimeMap,
  workloadCondition, type WorkloadObject,
} from './schema-parts.js';

/** Pod annotation: JSON {"name":<ws>,"subset":<subset>,"uid"?:<id>}. */
export const MatchedWorkloadSpreadAnnotation = 'apps.kruise.io/matched-workloadspread';
/** WorkloadSpread annotation: "true" = do not copy subset patch metadata onto adopted pods. */
export const IgnorePatchExistingPodsAnnotation = 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata';
/** Status key of versionedSubsetStatuses for pods whose owner kind is not versioned. */
export const VersionIgnoredKey = 'versionIgnored';

/** Subset fields other than the node selectors, whose names differ per version. */
const subsetFields = {
  tolerations: Type.Optional(Type.Array(FreeForm)),
  maxReplicas: Type.Optional(IntOrString),
  patch: Type.Optional(RawExtension),
};

export const WorkloadSpreadV1alpha1Subset = Type.Object({
  name: Type.String(),
  requiredNodeSelectorTerm: Type.Optional(FreeForm),
  preferredNodeSelectorTerms: Type.Optional(Type.Array(FreeForm)),
  ...subsetFields,
});

export const WorkloadSpreadSubset = Type.Object({
  name: Type.String(),
  requiredNodeSelector: Type.Optional(FreeForm),
  preferredNodeSelector: Type.Optional(Type.Array(FreeForm)),
  ...subsetFields,
});

function workloadSpreadSpec<S extends TObject>(subsetSchema: S) {
  return Type.Object({
    targetRef: Type.Object({ apiVersion: Type.String(), kind: Type.String(), name: Type.String() }),
    targetFilter: Type.Optional(Type.Object({
      selector: Type.Optional(Selector),
      replicasPathList: Type.Optional(Type.Array(Type.String())),
    })),
    subsets: Type.Array(subsetSchema),
    scheduleStrategy: Type.Optional(Type.Object({
      type: Type.Optional(stringEnum(['Adaptive', 'Fixed', ''])),
      adaptive: Type.Optional(Type.Object({
        disableSimulationSchedule: Type.Optional(Type.Boolean()),
        rescheduleCriticalSeconds: Type.Optional(Int32()),
      })),
    })),
  });
}

export const WorkloadSpreadV1alpha1Spec = workloadSpreadSpec(WorkloadSpreadV1alpha1Subset);
export const WorkloadSpreadSpec = workloadSpreadSpec(WorkloadSpreadSubset);

function subsetStatus<C extends TSchema>(conditions: C) {
  return Type.Object({
    name: Type.String(),
    replicas: Int32(),
    conditions: Type.Optional(conditions),
    /** -1 = unbounded subset. */
    missingReplicas: Int32(),
    creatingPods: Type.Optional(TimeMap),
    deletingPods: Type.Optional(TimeMap),
  });
}

function workloadSpreadStatus<S extends TObject>(subsetStatusSchema: S) {
  return Type.Object({
    observedGeneration: Type.Optional(Int64()),
    subsetStatuses: Type.Optional(Type.Array(subsetStatusSchema)),
    versionedSubsetStatuses: Type.Optional(Type.Unsafe<Record<string, Static<S>[]>>({
      type: 'object',
      additionalProperties: Type.Array(subsetStatusSchema),
    })),
  });
}

export const WorkloadSpreadV1alpha1Status = workloadSpreadStatus(subsetStatus(Type.Array(workloadCondition())));
export const WorkloadSpreadStatus = workloadSpreadStatus(subsetStatus(Type.Array(MetaCondition, {
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
})));

export const WorkloadSpreadV1alpha1Schema = objectSchema(WorkloadSpreadV1alpha1Spec, WorkloadSpreadV1alpha1Status);
export const WorkloadSpreadSchema = objectSchema(WorkloadSpreadSpec, WorkloadSpreadStatus);

export type WorkloadSpreadV1alpha1 = WorkloadObject<typeof WorkloadSpreadV1alpha1Schema>;
export type WorkloadSpread = WorkloadObject<typeof WorkloadSpreadSchema>;
export type WorkloadSpreadStatus = Static<typeof WorkloadSpreadStatus>;

export const workloadSpreadPrinterColumns: PrinterColumn[] = [
  { name: 'WorkloadName', type: 'string', jsonPath: '.spec.targetRef.name' },
  { name: 'WorkloadKind', type: 'string', jsonPath: '.spec.targetRef.kind' },
  { name: 'Adaptive', type: 'boolean', jsonPath: '.spec.scheduleStrategy.type[?(@ == "Adaptive")]', description: 'Whether use the adaptive reschedule strategy' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

function version(name: string, storage: boolean, schema: KindVersion['schema']): KindVersion {
  return { name, served: true, storage, schema, printerColumns: workloadSpreadPrinterColumns, subresources: { status: true } };
}

export const workloadSpreadKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'WorkloadSpread',
  plural: 'workloadspreads',
  singular: 'workloadspread',
  shortNames: ['ws'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false, WorkloadSpreadV1alpha1Schema), version('v1beta1', true, WorkloadSpreadSchema)],
});
