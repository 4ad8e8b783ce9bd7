/**
 * The three unions of apiextensions.k8s.io/v1 JSONSchemaProps, whose Go types write custom JSON (their
 * MarshalJSON methods), decoded from their protobuf messages:
 * - JSONSchemaPropsOrBool {1 allows, 2 schema}: the schema when set, else true/false;
 * - JSONSchemaPropsOrArray {1 schema, 2 jSONSchemas}: the list when non-empty, else the schema (or null);
 * - JSONSchemaPropsOrStringArray {1 schema, 2 property}: the strings when non-empty, else the schema (or null).
 */
import { forEachField, utf8, WireType } from './wire-reader.js';

export const SCHEMA_UNIONS: ReadonlySet<string> = new Set(['schema-or-bool', 'schema-or-array', 'schema-or-strings']);

/** Decodes one nested JSONSchemaProps message. */
export type SchemaDecoder = (bytes: Uint8Array) => unknown;

export function decodeSchemaUnion(tag: string, bytes: Uint8Array, decodeSchema: SchemaDecoder): unknown {
  let schema: unknown;
  let allows = false;
  const list: unknown[] = [];
  forEachField(bytes, (field, reader) => {
    if (tag === 'schema-or-bool' && field.number === 1 && field.wireType === WireType.Varint) {
      allows = reader.varint() !== 0n;
    } else if (field.wireType !== WireType.Bytes || field.number > 2) {
      reader.skip(field.wireType);
    } else if (field.number === (tag === 'schema-or-bool' ? 2 : 1)) {
      schema = decodeSchema(reader.bytes());
    } else if (field.number === 2) {
      list.push(tag === 'schema-or-strings' ? utf8(reader.bytes()) : decodeSchema(reader.bytes()));
    } else {
      reader.skip(field.wireType);
    }
  });
  if (tag === 'schema-or-bool') return schema ?? allows;
  if (list.length > 0) return list;
  return schema ?? null;
}
