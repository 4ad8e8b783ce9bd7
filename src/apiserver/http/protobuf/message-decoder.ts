/**
 * Descriptor-driven decoding of one protobuf message into the JSON value encoding/json would write for
 * the same Go object: JSON field names, inline embeddings merged, zero scalars dropped unless the Go field
 * is a pointer or lacks omitempty, empty lists and maps omitted, well-known types in their JSON forms.
 */
import { messageFields, SCALARS, type WireField } from './descriptor.js';
import { decodeSchemaUnion, SCHEMA_UNIONS } from './schema-unions.js';
import { decodeWellKnown, type EmbeddedDecoder } from './well-known.js';
import { forEachField, ProtobufError, utf8, WireReader, WireType } from './wire-reader.js';

type Json = Record<string, unknown>;

type Compiled = Map<number, WireField> | string;

const MAX_DEPTH = 64;
const SCHEMA_PROPS = 'apiextensions.v1.JSONSchemaProps';
const compiled = new Map<string, Compiled>();

/** The message's fields by number, for lookups by the tags read off the wire. */
function compile(type: string): Compiled {
  let found = compiled.get(type);
  if (found) return found;
  const fields = messageFields(type);
  found = typeof fields === 'string' ? fields : new Map(fields.map((f) => [f.number, f]));
  compiled.set(type, found);
  return found;
}

/** The JSON value of a message of `type` (an object, or a string/number/null for well-known types). */
export function decodeMessage(type: string, bytes: Uint8Array, embedded: EmbeddedDecoder, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new ProtobufError(`messages nested deeper than ${MAX_DEPTH} levels`);
  const fields = compile(type);
  if (typeof fields === 'string' && SCHEMA_UNIONS.has(fields)) {
    return decodeSchemaUnion(fields, bytes, (b) => decodeMessage(SCHEMA_PROPS, b, embedded, depth + 1));
  }
  if (typeof fields === 'string') return decodeWellKnown(fields, bytes, embedded, depth);
  return decodeInto({}, type, fields, bytes, embedded, depth);
}

function decodeInto(target: Json, type: string, fields: Map<number, WireField>, bytes: Uint8Array,
  embedded: EmbeddedDecoder, depth: number): Json {
  forEachField(bytes, (tag, reader) => {
    const field = fields.get(tag.number);
    if (!field) return reader.skip(tag.wireType);
    const where = `${type}.${field.name || field.type}`;
    if (field.scalar && field.repeated && tag.wireType === WireType.Bytes && !isLengthDelimited(field.type)) {
      return readPacked(reader.bytes(), field.type, list(target, field.name), where);
    }
    if (field.scalar && !field.map) {
      const value = readScalar(field.type, tag.wireType, reader, where);
      if (field.repeated) list(target, field.name).push(value);
      else if (field.keepZero || (value !== '' && value !== 0 && value !== false)) target[field.name] = value;
      return;
    }
    if (tag.wireType !== WireType.Bytes) throw new ProtobufError(`${where}: wire type ${tag.wireType}, expected 2`);
    const payload = reader.bytes();
    if (field.map) {
      const [key, value] = decodeMapEntry(field.type, payload, embedded, depth + 1, where);
      // defineProperty, as JSON.parse does: a "__proto__" key stays a plain key.
      const map = (target[field.name] ??= {}) as Json;
      Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    } else if (field.inline) {
      const inner = compile(field.type);
      if (typeof inner === 'string') throw new ProtobufError(`${where}: cannot inline ${field.type}`);
      decodeInto(target, field.type, inner, payload, embedded, depth + 1);
    } else if (field.repeated) {
      list(target, field.name).push(decodeMessage(field.type, payload, embedded, depth + 1));
    } else {
      target[field.name] = decodeMessage(field.type, payload, embedded, depth + 1);
    }
  });
  return target;
}

function list(target: Json, name: string): unknown[] {
  return (target[name] ??= []) as unknown[];
}

const isLengthDelimited = (type: string) => type === 'string' || type === 'bytes';
const wireTypeOf = (type: string) => (isLengthDelimited(type) ? WireType.Bytes : type === 'double' ? WireType.Fixed64 : WireType.Varint);

/** A packed repeated scalar (proto3 style); k8s writes proto2 unpacked lists, but both are valid. */
function readPacked(packed: Uint8Array, type: string, out: unknown[], where: string): void {
  const reader = new WireReader(packed);
  while (!reader.done) out.push(readScalar(type, wireTypeOf(type), reader, where));
}

function readScalar(type: string, wireType: number, reader: WireReader, where: string): unknown {
  const expected = wireTypeOf(type);
  if (wireType !== expected) throw new ProtobufError(`${where}: wire type ${wireType}, expected ${expected}`);
  switch (type) {
    case 'string': return utf8(reader.bytes());
    case 'bytes': return Buffer.from(reader.bytes()).toString('base64');
    case 'bool': return reader.varint() !== 0n;
    case 'double': return reader.double();
    case 'int32': return Number(BigInt.asIntN(32, reader.varint()));
    default: return Number(BigInt.asIntN(64, reader.varint()));
  }
}

function decodeMapEntry(valueType: string, entry: Uint8Array, embedded: EmbeddedDecoder, depth: number,
  where: string): [string, unknown] {
  let key = '';
  let value: unknown;
  forEachField(entry, (tag, reader) => {
    if (tag.number === 1) key = readScalar('string', tag.wireType, reader, `${where} key`) as string;
    else if (tag.number !== 2) reader.skip(tag.wireType);
    else if (SCALARS.has(valueType)) value = readScalar(valueType, tag.wireType, reader, `${where}[${key}]`);
    else if (tag.wireType !== WireType.Bytes) throw new ProtobufError(`${where}[${key}]: wire type ${tag.wireType}`);
    else value = decodeMessage(valueType, reader.bytes(), embedded, depth);
  });
  if (value === undefined) value = zeroValue(valueType, embedded, depth);
  return [key, value];
}

function zeroValue(type: string, embedded: EmbeddedDecoder, depth: number): unknown {
  if (type === 'bool') return false;
  if (type === 'int32' || type === 'int64') return 0;
  if (isLengthDelimited(type)) return '';
  return decodeMessage(type, new Uint8Array(0), embedded, depth);
}
