/**
 * PersistentPodState (apps.kruise.io): remembers the node topology of each StatefulSet pod and
 * steers its next incarnation back there. v1beta1 is stored; it renames `nodeTopologyKeys` to
 * `keys` and adds an enum on the retention policy and a minimum on preferred weights.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineKind } from '../define-kind.js';
import { Int32, Int64, MapOf, Opt, Str, StrEnum, StringMap, kindObject } from './schema.js';

/** Workload annotations that make the controller maintain a PersistentPodState named after it. */
export const AutoGeneratePersistentPodStateAnnotation = 'kruise.io/auto-generate-persistent-pod-state';
export const RequiredPersistentTopologyAnnotation = 'kruise.io/required-persistent-topology';
export const PreferredPersistentTopologyAnnotation = 'kruise.io/preferred-persistent-topology';
export const PersistentPodAnnotationsAnnotation = 'kruise.io/persistent-pod-annotations';
/** Pod annotation naming the PersistentPodState whose topology was injected. */
export const InjectedPersistentPodStateAnnotation = 'kruise.io/injected-persistent-pod-state';

export const RetentionPolicies = ['WhenScaled', 'WhenDeleted'] as const;
export type PersistentPodStateRetentionPolicy = typeof RetentionPolicies[number];

/** Both versions require apiVersion, kind and name. */
export const PPSTargetReference = Type.Object({ apiVersion: Str(), kind: Str(), name: Str() });

function ppsSpec<T extends TSchema, R extends TSchema>(term: T, retention: R, weight: TSchema) {
  return Type.Object({
    persistentPodAnnotations: Opt(Type.Array(Type.Object({ key: Str() }))),
    persistentPodStateRetentionPolicy: Opt(retention),
    preferredPersistentTopology: Opt(Type.Array(Type.Object({ preference: term, weight: Type.Unsafe<number>(weight) }))),
    requiredPersistentTopology: Opt(term),
    targetRef: PPSTargetReference,
  });
}

export const PersistentPodStateStatus = Type.Object({
  observedGeneration: Int64(),
  podStates: Opt(MapOf(Type.Object({
    annotations: Opt(StringMap()),
    nodeName: Opt(Str()),
    nodeTopologyLabels: Opt(StringMap()),
  }))),
});

export const PersistentPodStateSchemaV1alpha1 = kindObject(
  ppsSpec(Type.Object({ nodeTopologyKeys: Type.Array(Str()) }), Type.Unsafe<PersistentPodStateRetentionPolicy>(Str()), Int32()),
  PersistentPodStateStatus,
);
export const PersistentPodStateSchemaV1beta1 = kindObject(
  ppsSpec(Type.Object({ keys: Type.Array(Str()) }), StrEnum(RetentionPolicies), Int32({ minimum: 0 })),
  PersistentPodStateStatus,
);
export type PersistentPodStateV1alpha1 = Static<typeof PersistentPodStateSchemaV1alpha1>;
/** The hub version. */
export type PersistentPodState = Static<typeof PersistentPodStateSchemaV1beta1>;

export const persistentPodStateKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'PersistentPodState',
  plural: 'persistentpodstates',
  singular: 'persistentpodstate',
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: PersistentPodStateSchemaV1alpha1, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: PersistentPodStateSchemaV1beta1, subresources: { status: true } },
  ],
});
