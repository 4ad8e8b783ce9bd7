/**
 * The apimachinery types whose JSON form is not an object (metav1.Time, MicroTime, Duration, FieldsV1,
 * runtime.RawExtension, resource.Quantity, intstr.IntOrString, named string slices), decoded from their
 * protobuf messages into the value encoding/json would write.
 */
import { forEachField, ProtobufError, utf8, WireType, type FieldTag, type WireReader } from './wire-reader.js';

/** Decodes a nested `k8s\0` protobuf object found inside a RawExtension, `depth` levels down. */
export type EmbeddedDecoder = (bytes: Uint8Array, depth: number) => unknown;

export function decodeWellKnown(tag: string, bytes: Uint8Array, embedded: EmbeddedDecoder, depth: number): unknown {
  switch (tag) {
    case 'time':
    case 'microtime': {
      // A zero metav1.Time marshals as an empty message; encoding/json writes it as null.
      if (bytes.length === 0) return null;
      const ints = readInts(bytes);
      return formatTime(ints[1] ?? 0n, ints[2] ?? 0n, tag === 'microtime');
    }
    case 'duration':
      return formatDuration(readInts(bytes)[1] ?? 0n);
    case 'quantity':
      return readStrings(bytes)[1] ?? '0';
    case 'intstr': {
      const ints = readInts(bytes);
      if (ints[1] === 1n) return readStrings(bytes)[3] ?? '';
      return Number(BigInt.asIntN(32, ints[2] ?? 0n));
    }
    case 'json':
      return parseRaw(readBytes(bytes)[1], embedded, depth);
    default:
      if (tag.startsWith('list:')) return readList(bytes, tag.slice(5));
      throw new ProtobufError(`descriptor has an unknown special type ${tag}`);
  }
}

/** Go's time.Time JSON form in UTC: RFC 3339 with whole seconds, or with microseconds for MicroTime. */
export function formatTime(seconds: bigint, nanos: bigint, micro: boolean): string {
  const total = BigInt.asIntN(64, seconds) * 1_000_000_000n + BigInt.asIntN(32, nanos);
  let secs = total / 1_000_000_000n;
  let frac = total % 1_000_000_000n;
  if (frac < 0n) { secs -= 1n; frac += 1_000_000_000n; }
  const date = new Date(Number(secs) * 1000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new ProtobufError(`time ${secs}s is outside years 0-9999`);
  const base = date.toISOString().slice(0, 19);
  return micro ? `${base}.${String(frac / 1000n).padStart(6, '0')}Z` : `${base}Z`;
}

const UNITS: Array<[bigint, string]> = [[1_000n, 'ns'], [1_000_000n, 'µs'], [1_000_000_000n, 'ms']];

/** Go's time.Duration.String(): 0s, 1.5s, 2m0s, 1h0m0s, 300ms, 12µs, 7ns. */
export function formatDuration(nanos: bigint): string {
  const value = BigInt.asIntN(64, nanos);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  if (abs === 0n) return '0s';
  for (const [limit, unit] of UNITS) {
    if (abs < limit) return sign + decimal(abs, limit / 1000n) + unit;
  }
  const seconds = abs / 1_000_000_000n;
  const secondsText = decimal(abs % 60_000_000_000n, 1_000_000_000n) + 's';
  const minutes = seconds / 60n;
  if (minutes === 0n) return sign + secondsText;
  const hours = minutes / 60n;
  if (hours === 0n) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${hours}h${minutes % 60n}m${secondsText}`;
}

/** `n / scale` in decimal without trailing zeros: decimal(1500n, 1000n) = "1.5". */
function decimal(n: bigint, scale: bigint): string {
  const whole = n / scale;
  if (scale === 1n) return String(whole);
  const digits = String(scale).length - 1;
  const frac = String(n % scale).padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

function parseRaw(raw: Uint8Array | undefined, embedded: EmbeddedDecoder, depth: number): unknown {
  if (!raw || raw.length === 0) return null;
  if (raw.length >= 4 && MAGIC.every((b, i) => raw[i] === b)) return embedded(raw, depth + 1);
  try {
    return JSON.parse(utf8(raw));
  } catch (e) {
    throw new ProtobufError(`embedded raw object is neither JSON nor protobuf: ${(e as Error).message}`);
  }
}

function collect<T>(bytes: Uint8Array, wireType: number, read: (r: WireReader) => T): Record<number, T> {
  const out: Record<number, T> = {};
  forEachField(bytes, (tag: FieldTag, reader) => {
    if (tag.wireType === wireType) out[tag.number] = read(reader);
    else reader.skip(tag.wireType);
  });
  return out;
}

const readInts = (b: Uint8Array) => collect(b, WireType.Varint, (r) => r.varint());
const readBytes = (b: Uint8Array) => collect(b, WireType.Bytes, (r) => r.bytes());
const readStrings = (b: Uint8Array) => collect(b, WireType.Bytes, (r) => utf8(r.bytes()));

function readList(bytes: Uint8Array, itemType: string): unknown[] {
  if (itemType !== 'string') throw new ProtobufError(`list of ${itemType} is not supported`);
  const items: string[] = [];
  forEachField(bytes, (tag, reader) => {
    if (tag.number === 1 && tag.wireType === WireType.Bytes) items.push(utf8(reader.bytes()));
    else reader.skip(tag.wireType);
  });
  return items;
}
