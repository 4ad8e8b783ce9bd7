/**
 * The generated wire descriptor (k8s-proto.gen.json, written by hack/gen-k8s-proto.mjs) and lookups on it.
 * Message names drop the `k8s.io.api.` / `k8s.io.apimachinery.pkg.` prefix: `apps.v1.Deployment`,
 * `apis.meta.v1.ObjectMeta`.
 */
import generated from './k8s-proto.gen.json' with { type: 'json' };
import { ProtobufError } from './wire-reader.js';

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double';

/**
 * One field as [jsonName, type, flags?]. Flags: r repeated, m map<string, type>, i inline (the JSON form
 * merges the sub-message's fields into the parent; jsonName is ''), k keep a zero scalar (a pointer or a
 * field without omitempty, so encoding/json would write it).
 */
export type FieldEntry = [name: string, type: string, flags?: string];

/**
 * A message: its fields by number, or a tag for the types whose JSON form is not an object:
 * time, microtime, duration, json (RawExtension, FieldsV1, apiextensions JSON), quantity, intstr, list:<scalar>,
 * and the JSONSchemaProps unions schema-or-bool, schema-or-array, schema-or-strings (schema-unions.ts).
 */
export type MessageEntry = Record<string, FieldEntry> | string;

export interface Descriptor {
  header: string;
  /** `${apiVersion}/${kind}` -> message name. */
  kinds: Record<string, string>;
  messages: Record<string, MessageEntry>;
}

// The JSON module's inferred literal type is huge and its arrays are not tuples; the shape is the generator's.
export const descriptor = generated as unknown as Descriptor;

export const SCALARS: ReadonlySet<string> = new Set<ScalarType>(['string', 'bytes', 'bool', 'int32', 'int64', 'double']);

const DELETE_OPTIONS = 'apis.meta.v1.DeleteOptions';
const STATUS = 'apis.meta.v1.Status';

/**
 * The message for a top-level kind. DeleteOptions is registered in every group version by
 * metav1.AddToGroupVersion, so a client may tag it with its resource's apiVersion (apps/v1, v1, ...).
 * metav1.Status is an unversioned kind, written as `v1`.
 */
export function messageForKind(apiVersion: string, kind: string): string | undefined {
  const found = descriptor.kinds[`${apiVersion}/${kind}`];
  if (found) return found;
  if (kind === 'Status' && apiVersion === 'v1') return STATUS;
  return kind === 'DeleteOptions' ? DELETE_OPTIONS : undefined;
}

/** A FieldEntry read out, with its number, for the encoder and the decoder. */
export interface WireField {
  number: number;
  name: string;
  type: string;
  scalar: boolean;
  repeated: boolean;
  map: boolean;
  inline: boolean;
  keepZero: boolean;
}

const fieldsByMessage = new Map<string, WireField[] | string>();

/** A message's fields in number order, or its tag when its JSON form is not an object (cached). */
export function messageFields(type: string): WireField[] | string {
  let found = fieldsByMessage.get(type);
  if (found) return found;
  const entry = descriptor.messages[type];
  if (entry === undefined) throw new ProtobufError(`no wire descriptor for message ${type}`);
  found = typeof entry === 'string' ? entry : Object.entries(entry)
    .map(([number, [name, fieldType, flags = '']]) => ({
      number: Number(number), name, type: fieldType, scalar: SCALARS.has(fieldType),
      repeated: flags.includes('r'), map: flags.includes('m'), inline: flags.includes('i'), keepZero: flags.includes('k'),
    }))
    .sort((a, b) => a.number - b.number);
  fieldsByMessage.set(type, found);
  return found;
}
