/**
 * Descriptor-driven encoding of a JSON object into the protobuf message Go's generated marshalers write
 * for the same object, the inverse of message-decoder.ts: fields by number in number order, inline
 * embeddings read from the parent's JSON, map entries sorted by key, well-known types from their JSON
 * forms (well-known-encode.ts). Fields the message does not have (kind, apiVersion, unknown) are skipped.
 */
import { messageFields, type WireField } from './descriptor.js';
import { encodeWellKnown } from './well-known-encode.js';
import { WireType } from './wire-reader.js';
import type { WireWriter } from './wire-writer.js';

type Json = Record<string, unknown>;

/** Writes the fields of `value`, a JSON value of message `type`, into `w` (no tag or length of its own). */
export function encodeMessage(w: WireWriter, type: string, value: unknown): void {
  const fields = messageFields(type);
  if (typeof fields === 'string') return encodeWellKnown(w, fields, value, encodeMessage);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const obj = value as Json;
  for (const field of fields) {
    if (field.inline) {
      writeMessage(w, field.number, field.type, obj);
      continue;
    }
    const v = obj[field.name];
    if (v === undefined) continue;
    if (field.map) writeMap(w, field, v);
    else if (field.repeated) {
      if (!Array.isArray(v)) continue;
      for (const item of v) writeValue(w, field, item);
    } else writeValue(w, field, v);
  }
}

function writeValue(w: WireWriter, field: WireField, value: unknown): void {
  if (field.scalar) writeScalar(w, field.number, field.type, value);
  else writeMessage(w, field.number, field.type, value);
}

function writeMessage(w: WireWriter, number: number, type: string, value: unknown): void {
  // null is a nil pointer (not written), except metav1.Time, whose zero value Go writes as an empty message.
  if (value === null && !isTime(type)) return;
  const mark = w.beginMessage(number);
  if (value !== null) encodeMessage(w, type, value);
  w.endMessage(mark);
}

const isTime = (type: string) => type === 'apis.meta.v1.Time' || type === 'apis.meta.v1.MicroTime';

function writeMap(w: WireWriter, field: WireField, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const map = value as Json;
  for (const key of Object.keys(map).sort()) {
    const mark = w.beginMessage(field.number);
    w.string(1, key);
    writeValue(w, { ...field, number: 2 }, map[key]);
    w.endMessage(mark);
  }
}

export function writeScalar(w: WireWriter, number: number, type: string, value: unknown): void {
  switch (type) {
    case 'string': return w.string(number, typeof value === 'string' ? value : String(value));
    case 'bytes': return w.bytes(number, Buffer.from(String(value), 'base64'));
    case 'bool':
      w.tag(number, WireType.Varint);
      return w.varint(value ? 1 : 0);
    case 'double': return w.double(number, Number(value));
    default: {
      const n = Number(value);
      if (!Number.isFinite(n)) return;
      w.tag(number, WireType.Varint);
      return w.varint(Math.trunc(n));
    }
  }
}
