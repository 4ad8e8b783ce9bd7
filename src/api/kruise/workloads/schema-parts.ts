/**
 * Schema pieces the workload kinds share (apis/apps/pub in OpenKruise): typed object roots, maps,
 * selectors, lifecycle hooks, update priorities, conditions and the printer columns every kind has.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ObjectMeta } from '../../meta.js';
import type { PrinterColumn } from '../define-kind.js';
import { LabelSelectorRequirement } from '../common.js';

export const Int32 = (opts: Record<string, unknown> = {}) => Type.Integer({ format: 'int32', ...opts });
export const Int64 = (opts: Record<string, unknown> = {}) => Type.Integer({ format: 'int64', ...opts });
export const DateTime = () => Type.String({ format: 'date-time' });

/** map[string]string. TypeBox's Record emits patternProperties, which CRD schemas do not use. */
export const StringMap = Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } });
/** map[string]int32 (UnitedDeployment partitions). */
export const Int32Map = Type.Unsafe<Record<string, number>>({ type: 'object', additionalProperties: { type: 'integer', format: 'int32' } });
/** map[string]metav1.Time (WorkloadSpread creatingPods/deletingPods). */
export const TimeMap = Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string', format: 'date-time' } });
/** runtime.RawExtension kept as given (subset patches). */
export const RawExtension = Type.Unsafe<unknown>({ 'x-kubernetes-preserve-unknown-fields': true });

/** metav1.LabelSelector with matchLabels as a real map (see StringMap). */
export const Selector = Type.Object({
  matchExpressions: Type.Optional(Type.Array(LabelSelectorRequirement)),
  matchLabels: Type.Optional(StringMap),
}, { 'x-kubernetes-map-type': 'atomic' });
export type Selector = Static<typeof Selector>;

/** pub.LifecycleHook: labels/finalizers a pod must carry before the controller moves on. */
export const LifecycleHook = Type.Object({
  finalizersHandler: Type.Optional(Type.Array(Type.String())),
  labelsHandler: Type.Optional(StringMap),
  markPodNotReady: Type.Optional(Type.Boolean()),
});
export const Lifecycle = Type.Object({
  inPlaceUpdate: Type.Optional(LifecycleHook),
  preDelete: Type.Optional(LifecycleHook),
  preNormal: Type.Optional(LifecycleHook),
});
export type Lifecycle = Static<typeof Lifecycle>;

/** pub.UpdatePriorityStrategy: weight terms or ordered label keys. */
export const UpdatePriorityStrategy = Type.Object({
  orderPriority: Type.Optional(Type.Array(Type.Object({ orderedKey: Type.String() }))),
  weightPriority: Type.Optional(Type.Array(Type.Object({ matchSelector: Selector, weight: Int32() }))),
});
export type UpdatePriorityStrategy = Static<typeof UpdatePriorityStrategy>;

export const UpdateScatterStrategy = Type.Array(Type.Object({ key: Type.String(), value: Type.String() }));

/** pub.InPlaceUpdateStrategy. */
export const InPlaceUpdateStrategy = Type.Object({ gracePeriodSeconds: Type.Optional(Int32()) });

/** Condition of a workload (CloneSet/ASTS/ADS/subset): type and status required, times optional. */
export function workloadCondition(withLastUpdateTime = false) {
  return Type.Object({
    lastTransitionTime: Type.Optional(DateTime()),
    ...(withLastUpdateTime ? { lastUpdateTime: Type.Optional(DateTime()) } : {}),
    message: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    status: Type.String(),
    type: Type.String(),
  });
}

/** A string restricted to `values` (TypeBox unions of literals are not structural). */
export function stringEnum<T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values] });
}

/** metav1.Condition as controller-gen renders it (WorkloadSpread v1beta1 subsets). */
export const MetaCondition = Type.Object({
  lastTransitionTime: DateTime(),
  message: Type.String({ maxLength: 32768 }),
  observedGeneration: Type.Optional(Int64({ minimum: 0 })),
  reason: Type.String({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
  status: stringEnum(['True', 'False', 'Unknown']),
  type: Type.String({
    maxLength: 316,
    pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
  }),
});

/** Whole-object schema (like common.kindSchema) that keeps the static type of spec and status. */
export function objectSchema<S extends TSchema, T extends TSchema>(spec: S, status: T) {
  return Type.Object({
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Unsafe<ObjectMeta>({ type: 'object' })),
    spec: Type.Optional(spec),
    status: Type.Optional(status),
  });
}

/** The TS type of a stored object: the schema's static type with metadata always present. */
export type WorkloadObject<R extends TSchema> = Static<R> & { metadata: ObjectMeta };

const ageDescription = 'CreationTimestamp is a timestamp representing the server time when this object was created. '
  + 'It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. '
  + 'It is represented in RFC3339 form and is in UTC.';

export function ageColumn(name = 'AGE'): PrinterColumn {
  return { name, type: 'date', jsonPath: '.metadata.creationTimestamp', description: ageDescription };
}

export function intColumn(name: string, jsonPath: string, description: string): PrinterColumn {
  return { name, type: 'integer', jsonPath, description };
}

/** CONTAINERS and IMAGES, shown with -o wide. */
export function containerColumns(what: string): PrinterColumn[] {
  return [
    { name: 'CONTAINERS', type: 'string', priority: 1, jsonPath: '.spec.template.spec.containers[*].name', description: `The containers of currently ${what}.` },
    { name: 'IMAGES', type: 'string', priority: 1, jsonPath: '.spec.template.spec.containers[*].image', description: `The images of currently ${what}.` },
  ];
}

export const scaleSubresource = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };
