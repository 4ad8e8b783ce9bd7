/**
 * UnitedDeployment (apps.kruise.io, short name `ud`): one workload per topology subset from a single
 * template. v1alpha1 and v1beta1 (storage) share the spec; v1beta1 folds `subsetReplicas` and
 * `updateStatus` into `subsetStatuses[]` and `updatedRevision` (docs/design/kruise-api.md §4, §1).
 */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { FreeForm, IntOrString } from '../common.js';
import { defineKind, type KindVersion, type PrinterColumn } from '../define-kind.js';
import { CloneSetSpec, CloneSetV1alpha1Spec } from './cloneset.js';
import { StatefulSetSpec } from './statefulset.js';
import {
  ageColumn, DateTime, Int32, Int32Map, Int64, intColumn, objectSchema, RawExtension, scaleSubresource, Selector,
  stringEnum, workloadCondition, type WorkloadObject,
} from './schema-parts.js';

/** Revision label on subset workloads and their pods (UnitedDeployment only; not `controller-revision-hash`). */
export const UnitedDeploymentRevisionLabel = 'apps.kruise.io/controller-revision-hash';
export const SubsetNameLabel = 'apps.kruise.io/subset-name';
/** Raw subset patch (or "") copied onto each subset workload. */
export const SubsetPatchAnnotation = 'apps.kruise.io/subset-patch';
/** "true"/"false" on pods in reservation mode (adaptive reserveUnschedulablePods). */
export const UnitedDeploymentReservedPodLabel = 'apps.kruise.io/united-deployment-reserved-pod';

/** A subset workload template: metadata kept as given, spec typed when it is a Kruise kind. */
function subsetTemplate<S extends TSchema>(spec: S) {
  return Type.Object({ metadata: Type.Optional(FreeForm), spec });
}

/** The embedded CloneSet spec follows the CloneSet version of the same name (upstream Go types). */
function unitedDeploymentSpec<C extends TObject>(cloneSetSpec: C) {
  return Type.Object({
    replicas: Type.Optional(Int32()),
    selector: Selector,
    template: Type.Optional(Type.Object({
      statefulSetTemplate: Type.Optional(subsetTemplate(FreeForm)),
      advancedStatefulSetTemplate: Type.Optional(subsetTemplate(StatefulSetSpec)),
      cloneSetTemplate: Type.Optional(subsetTemplate(cloneSetSpec)),
      deploymentTemplate: Type.Optional(subsetTemplate(FreeForm)),
    })),
    topology: Type.Optional(Type.Object({
      subsets: Type.Optional(Type.Array(Type.Object({
        name: Type.String(),
        nodeSelectorTerm: Type.Optional(FreeForm),
        tolerations: Type.Optional(Type.Array(FreeForm)),
        replicas: Type.Optional(IntOrString),
        minReplicas: Type.Optional(IntOrString),
        maxReplicas: Type.Optional(IntOrString),
        patch: Type.Optional(RawExtension),
      }))),
      scheduleStrategy: Type.Optional(Type.Object({
        type: Type.Optional(stringEnum(['Adaptive', 'Fixed', ''])),
        adaptive: Type.Optional(Type.Object({
          rescheduleCriticalSeconds: Type.Optional(Int32()),
          unschedulableDuration: Type.Optional(Int32()),
          reserveUnschedulablePods: Type.Optional(Type.Boolean()),
        })),
      })),
    })),
    updateStrategy: Type.Optional(Type.Object({
      type: Type.Optional(stringEnum(['Manual', ''])),
      manualUpdate: Type.Optional(Type.Object({ partitions: Type.Optional(Int32Map) })),
    })),
    revisionHistoryLimit: Type.Optional(Int32()),
  });
}

export const UnitedDeploymentV1alpha1Spec = unitedDeploymentSpec(CloneSetV1alpha1Spec);
export const UnitedDeploymentSpec = unitedDeploymentSpec(CloneSetSpec);

const SubsetStatus = Type.Object({
  name: Type.Optional(Type.String()),
  replicas: Type.Optional(Int32()),
  readyReplicas: Type.Optional(Int32()),
  partition: Type.Optional(Int32()),
  reservedPods: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(workloadCondition())),
});

/** UnitedDeployment conditions have every field optional. */
const UnitedDeploymentCondition = Type.Object({
  type: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  lastTransitionTime: Type.Optional(DateTime()),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

const commonStatus = {
  observedGeneration: Type.Optional(Int64()),
  readyReplicas: Type.Optional(Int32()),
  replicas: Int32(),
  updatedReplicas: Int32(),
  reservedPods: Type.Optional(Int32()),
  updatedReadyReplicas: Type.Optional(Int32()),
  collisionCount: Type.Optional(Int32()),
  currentRevision: Type.String(),
  subsetStatuses: Type.Optional(Type.Array(SubsetStatus)),
  conditions: Type.Optional(Type.Array(UnitedDeploymentCondition)),
  labelSelector: Type.Optional(Type.String()),
};

export const UnitedDeploymentV1alpha1Status = Type.Object({
  ...commonStatus,
  subsetReplicas: Type.Optional(Int32Map),
  updateStatus: Type.Optional(Type.Object({
    updatedRevision: Type.Optional(Type.String()),
    currentPartitions: Type.Optional(Int32Map),
  })),
});
export const UnitedDeploymentStatus = Type.Object({ ...commonStatus, updatedRevision: Type.Optional(Type.String()) });

export const UnitedDeploymentV1alpha1Schema = objectSchema(UnitedDeploymentV1alpha1Spec, UnitedDeploymentV1alpha1Status);
export const UnitedDeploymentSchema = objectSchema(UnitedDeploymentSpec, UnitedDeploymentStatus);

export type UnitedDeploymentV1alpha1 = WorkloadObject<typeof UnitedDeploymentV1alpha1Schema>;
export type UnitedDeployment = WorkloadObject<typeof UnitedDeploymentSchema>;
export type UnitedDeploymentSpec = Static<typeof UnitedDeploymentSpec>;
export type UnitedDeploymentStatus = Static<typeof UnitedDeploymentStatus>;

export const unitedDeploymentPrinterColumns: PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'The desired number of pods.'),
  intColumn('CURRENT', '.status.replicas', 'The number of currently all pods.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'The number of pods updated.'),
  intColumn('READY', '.status.readyReplicas', 'The number of pods ready.'),
  ageColumn(),
];

function version(name: string, storage: boolean, schema: KindVersion['schema']): KindVersion {
  return { name, served: true, storage, schema, printerColumns: unitedDeploymentPrinterColumns, subresources: { status: true, scale: scaleSubresource } };
}

export const unitedDeploymentKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'UnitedDeployment',
  plural: 'uniteddeployments',
  singular: 'uniteddeployment',
  shortNames: ['ud'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false, UnitedDeploymentV1alpha1Schema), version('v1beta1', true, UnitedDeploymentSchema)],
});
