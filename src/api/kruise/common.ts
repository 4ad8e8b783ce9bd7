/** Schema pieces shared by Kruise kinds: metadata, pod templates, selectors, int-or-string, conditions. */
import { Type, type TSchema } from '@sinclair/typebox';

/** Any Kubernetes object embedded as a template; validated by the server that creates it. */
export const PodTemplateSpec = Type.Unsafe<Record<string, unknown>>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
export const PersistentVolumeClaimTemplate = Type.Unsafe<Record<string, unknown>>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
/** Free-form object kept as given (affinity, tolerations, resource lists...). */
export const FreeForm = Type.Unsafe<Record<string, unknown>>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

export const IntOrString = Type.Unsafe<number | string>({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });

export const LabelSelectorRequirement = Type.Object({
  key: Type.String(),
  operator: Type.String(),
  values: Type.Optional(Type.Array(Type.String())),
});

/** A map of strings as CRD schemas spell it (TypeBox's Record emits patternProperties, which CRDs do not allow). */
export const StringMap = Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } });

export const LabelSelector = Type.Object({
  matchLabels: Type.Optional(StringMap),
  matchExpressions: Type.Optional(Type.Array(LabelSelectorRequirement)),
}, { 'x-kubernetes-map-type': 'atomic' });

export const Condition = Type.Object({
  type: Type.String(),
  status: Type.String(),
  lastTransitionTime: Type.Optional(Type.String({ format: 'date-time' })),
  lastUpdateTime: Type.Optional(Type.String({ format: 'date-time' })),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

/** Root of every kind's schema: apiVersion, kind, metadata (validated by the server) plus spec and status. */
export function kindSchema(spec: TSchema, status: TSchema): TSchema {
  return Type.Object({
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object' })),
    spec: Type.Optional(spec),
    status: Type.Optional(status),
  });
}
