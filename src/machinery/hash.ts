/**
 * Hashes behind Kubernetes object names: 32-bit FNV-1 and FNV-1a, the "safe" encoding that maps a
 * decimal hash onto letters and digits that never spell a word, and JSON encoded the way Go's
 * encoding/json writes a map (keys sorted at every level, `<`, `>`, `&`, U+2028 and U+2029
 * escaped), so a hash over "the raw bytes" of a JSON document is stable across processes.
 */
import { compareStrings } from './order.js';

const fnvPrime = 0x01000193;
const fnvOffsetBasis = 0x811c9dc5;
const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1 (multiply, then xor), 32 bits, continuing from `seed` (the offset basis by default). */
export function fnv1(bytes: Uint8Array, seed = fnvOffsetBasis): number {
  let hash = seed;
  for (const b of bytes) hash = (Math.imul(hash, fnvPrime) ^ b) >>> 0;
  return hash >>> 0;
}

/** FNV-1a (xor, then multiply), 32 bits, continuing from `seed`. */
export function fnv1a(bytes: Uint8Array, seed = fnvOffsetBasis): number {
  let hash = seed;
  for (const b of bytes) hash = Math.imul(hash ^ b, fnvPrime) >>> 0;
  return hash >>> 0;
}

/** k8s rand.SafeEncodeString: each character replaced by the alphabet entry at its code point. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += safeAlphabet[ch.codePointAt(0)! % safeAlphabet.length];
  return out;
}

const goEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => goEscapes[c]!);
}

/** JSON as Go's json.Marshal writes a map[string]interface{}: sorted keys, HTML-safe strings, no spaces. */
export function goJson(value: unknown): string {
  if (typeof value === 'string') return goString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : goJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => compareStrings(a, b));
  return `{${entries.map(([k, v]) => `${goString(k)}:${goJson(v)}`).join(',')}}`;
}

/**
 * k8s controller.ComputeHash shape: FNV-1a over the object, then the collision count as 8 bytes
 * (uint32 little-endian, 4 zero bytes), safe-encoded. Upstream feeds a spew dump of the Go struct;
 * we feed goJson, which is as stable but does not reproduce upstream's values.
 */
export function computeObjectHash(obj: unknown, collisionCount?: number): string {
  let hash = fnv1a(new TextEncoder().encode(goJson(obj)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}
