/**
 * PodUnavailableBudget (policy.kruise.io, `pub`): a PDB enforced at admission on delete,
 * eviction and in-place update. v1beta1 is stored; it turns the v1alpha1 annotations
 * `kruise.io/pub-protect-operations` and `pub.kruise.io/protect-total-replicas` into
 * `spec.protectOperations` / `spec.protectTotalReplicas` and adds `spec.ignoredPodSelector`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { IntOrString } from '../common.js';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { LabelSelector } from './core-types.js';
import { Int32, Int64, MapOf, Opt, Str, StrEnum, Time, kindObject } from './schema.js';

/** PUB annotations (v1alpha1 form of two v1beta1 fields). */
export const PubProtectOperationAnnotation = 'kruise.io/pub-protect-operations';
export const PubProtectTotalReplicasAnnotation = 'pub.kruise.io/protect-total-replicas';
/** Pod annotations: the PUB a pod is bound to (new and legacy key), and the force-delete escape hatch. */
export const PodRelatedPubAnnotation = 'pub.kruise.io/related-pub';
export const DeprecatedPodRelatedPubAnnotation = 'kruise.io/related-pub';
export const PodPubNoProtectionAnnotation = 'pub.kruise.io/no-protect';
/** Pods with a label of this prefix count as unavailable. */
export const PubUnavailablePodLabelPrefix = 'unavailable-pod.kruise.io/';

export const PubOperations = ['DELETE', 'UPDATE', 'EVICT', 'RESIZE'] as const;
export type PubOperation = typeof PubOperations[number];

export const PubTargetReference = Type.Object({ apiVersion: Opt(Str()), kind: Opt(Str()), name: Opt(Str()) });

const specProps = {
  maxUnavailable: Opt(IntOrString),
  minAvailable: Opt(IntOrString),
  selector: Opt(LabelSelector),
  targetRef: Opt(PubTargetReference),
};

export const PodUnavailableBudgetStatus = Type.Object({
  currentAvailable: Int32(),
  desiredAvailable: Int32(),
  disruptedPods: Opt(MapOf(Time())),
  observedGeneration: Opt(Int64()),
  totalReplicas: Int32(),
  unavailableAllowed: Int32(),
  unavailablePods: Opt(MapOf(Time())),
});

export const PodUnavailableBudgetSchemaV1alpha1 = kindObject(Type.Object(specProps), PodUnavailableBudgetStatus);
export const PodUnavailableBudgetSchemaV1beta1 = kindObject(Type.Object({
  ...specProps,
  ignoredPodSelector: Opt(LabelSelector),
  protectOperations: Opt(Type.Array(StrEnum(PubOperations))),
  protectTotalReplicas: Opt(Int32({ minimum: 1 })),
}), PodUnavailableBudgetStatus);
export type PodUnavailableBudgetV1alpha1 = Static<typeof PodUnavailableBudgetSchemaV1alpha1>;
/** The hub version. */
export type PodUnavailableBudget = Static<typeof PodUnavailableBudgetSchemaV1beta1>;

const columns: PrinterColumn[] = [
  { name: 'Allowed', type: 'integer', jsonPath: '.status.unavailableAllowed', description: 'UnavailableAllowed number of pod unavailable that are currently allowed' },
  { name: 'Current', type: 'integer', jsonPath: '.status.currentAvailable', description: 'CurrentAvailable current number of available pods' },
  { name: 'Desired', type: 'integer', jsonPath: '.status.desiredAvailable', description: 'DesiredAvailable minimum desired number of available pods' },
  { name: 'Total', type: 'integer', jsonPath: '.status.totalReplicas', description: 'TotalReplicas total number of pods counted by this budget' },
];

export const podUnavailableBudgetKind = defineKind({
  group: 'policy.kruise.io',
  kind: 'PodUnavailableBudget',
  plural: 'podunavailablebudgets',
  singular: 'podunavailablebudget',
  shortNames: ['pub'],
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: PodUnavailableBudgetSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: PodUnavailableBudgetSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
