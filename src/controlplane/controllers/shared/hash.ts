/**
 * Template hashing for `pod-template-hash` and ControllerRevision names, shaped like Kubernetes'
 * controller.ComputeHash: FNV-32a over the object, then the collision count as four little-endian
 * bytes, the 32-bit sum printed in decimal and each digit mapped through the "safe" alphabet (no
 * vowels, no 0/1/3, so a hash never spells a word). Kubernetes feeds FNV a spew dump of the Go
 * struct; we feed it canonical JSON (sorted keys, undefined dropped), which is just as stable but
 * does not reproduce upstream's hash values.
 */

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a, 32 bits, over `bytes`, continuing from `seed` (the offset basis by default). */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed;
  for (const b of bytes) {
    hash ^= b;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** rand.SafeEncodeString: every character replaced by the safe alphabet entry at its code point. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length];
  return out;
}

/** JSON with object keys sorted at every level and undefined members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The hash of `obj` (and `collisionCount`, when set) as a safe-encoded string of up to 10 characters. */
export function computeHash(obj: unknown, collisionCount?: number): string {
  let hash = fnv32a(new TextEncoder().encode(canonicalJson(obj)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}
