/**
 * The apimachinery types whose JSON form is not an object, encoded from that JSON form into their
 * protobuf messages: the inverse of well-known.ts and schema-unions.ts.
 */
import { ProtobufError, WireType } from './wire-reader.js';
import type { WireWriter } from './wire-writer.js';

export type MessageEncoder = (w: WireWriter, type: string, value: unknown) => void;

const SCHEMA_PROPS = 'apiextensions.v1.JSONSchemaProps';

export function encodeWellKnown(w: WireWriter, tag: string, value: unknown, encodeMessage: MessageEncoder): void {
  switch (tag) {
    case 'time':
    case 'microtime': {
      if (typeof value !== 'string') return; // null: the zero time, an empty message
      const [seconds, nanos] = parseTime(value);
      int(w, 1, seconds);
      return int(w, 2, nanos);
    }
    case 'duration': return int(w, 1, parseDuration(String(value)));
    case 'quantity': return w.string(1, String(value));
    case 'intstr':
      if (typeof value === 'number') {
        int(w, 1, 0);
        int(w, 2, value);
        return w.string(3, '');
      }
      int(w, 1, 1);
      int(w, 2, 0);
      return w.string(3, String(value));
    case 'json': return w.bytes(1, Buffer.from(JSON.stringify(value), 'utf8'));
    case 'schema-or-bool':
      if (typeof value === 'boolean') return int(w, 1, value ? 1 : 0);
      int(w, 1, 1);
      return message(w, 2, value, encodeMessage);
    case 'schema-or-array':
    case 'schema-or-strings':
      if (!Array.isArray(value)) return message(w, 1, value, encodeMessage);
      for (const item of value) {
        if (tag === 'schema-or-strings') w.string(2, String(item));
        else message(w, 2, item, encodeMessage);
      }
      return;
    default:
      if (tag === 'list:string' && Array.isArray(value)) {
        for (const item of value) w.string(1, String(item));
        return;
      }
      throw new ProtobufError(`descriptor has an unknown special type ${tag}`);
  }
}

function int(w: WireWriter, field: number, value: number): void {
  w.tag(field, WireType.Varint);
  w.varint(value);
}

function message(w: WireWriter, field: number, value: unknown, encodeMessage: MessageEncoder): void {
  const mark = w.beginMessage(field);
  encodeMessage(w, SCHEMA_PROPS, value);
  w.endMessage(mark);
}

/** RFC 3339 (the JSON form of metav1.Time / MicroTime) as Unix seconds and nanoseconds. */
export function parseTime(text: string): [number, number] {
  const fraction = /\.(\d+)/.exec(text);
  const ms = Date.parse(fraction ? text.replace(fraction[0], '') : text);
  if (Number.isNaN(ms)) throw new ProtobufError(`time "${text}" is not RFC 3339`);
  const nanos = fraction ? Number(fraction[1].slice(0, 9).padEnd(9, '0')) : 0;
  return [Math.floor(ms / 1000), nanos];
}

const UNIT_NANOS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go's time.ParseDuration: "1h2m3.5s", "300ms", "-1.5h", "0". */
export function parseDuration(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  if (body === '0') return 0;
  let total = 0;
  let rest = body;
  while (rest.length > 0) {
    const part = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!part || part[1] === '' || part[1] === '.') throw new ProtobufError(`duration "${text}" is not a Go duration`);
    total += Number(part[1]) * UNIT_NANOS[part[2]];
    rest = rest.slice(part[0].length);
  }
  return sign * Math.round(total);
}
