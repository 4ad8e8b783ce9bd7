/**
 * Small TypeBox builders that emit exactly the structural JSON Schema a CRD needs. TypeBox's own
 * `Type.Record` emits `patternProperties` and `Type.Union` of literals emits `anyOf`/`const`, which
 * the CRD schema engine does not understand, so maps and enums are built here instead.
 */
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import type { ObjectMeta } from '../../meta.js';

export const Str = (opts: { minLength?: number } = {}) => Type.String(opts);
export const Int32 = (opts: { minimum?: number; maximum?: number } = {}) => Type.Integer({ format: 'int32', ...opts });
export const Int64 = (opts: { minimum?: number } = {}) => Type.Integer({ format: 'int64', ...opts });
export const Bool = () => Type.Boolean();
/** metav1.Time: an RFC 3339 string. */
export const Time = () => Type.String({ format: 'date-time' });
export const Opt = Type.Optional;

/** A string restricted to `values` (`enum:` in the CRD). */
export function StrEnum<const V extends readonly string[]>(values: V, opts: { default?: V[number] } = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...opts });
}

/** A map with string keys (`additionalProperties:` in the CRD). */
export function MapOf<T extends TSchema>(value: T) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value });
}

/** map[string]string (labels, annotations, sandbox metadata...). */
export const StringMap = () => MapOf(Type.String());

/** Any JSON kept as given, without even a type (Go `+kubebuilder:validation:Schemaless` fields). */
export function Schemaless<T = unknown>() {
  return Type.Unsafe<T>({ 'x-kubernetes-preserve-unknown-fields': true });
}

/** An object that keeps unknown fields while declaring (and so pruning/validating) some known ones. */
export function OpenObject<P extends TProperties>(props: P) {
  const schema = Type.Object(props, { 'x-kubernetes-preserve-unknown-fields': true });
  return Type.Unsafe<Static<typeof schema> & Record<string, unknown>>(schema);
}

/**
 * ObjectMeta of an embedded template (labels, annotations...). Upstream declares it as a bare
 * `type: object`, which prunes everything inside it on a real apiserver; we keep its content so
 * template labels reach the created children, as the behaviour specs require.
 */
export const TemplateMeta = Type.Unsafe<ObjectMeta>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

/** Root of a kind's schema: apiVersion, kind, metadata (validated as ObjectMeta by the server), spec, status. */
export function kindObject<S extends TSchema, T extends TSchema>(spec: S, status: T) {
  return Type.Object({
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Unsafe<ObjectMeta>({ type: 'object' })),
    spec: Type.Optional(spec),
    status: Type.Optional(status),
  });
}

/** The AGE column every Kruise kind but PUB and ResourceDistribution prints last. */
export const AgeColumn = {
  name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
} as const;
