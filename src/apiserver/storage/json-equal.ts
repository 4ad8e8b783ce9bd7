/**
 * Equality of plain JSON values as they would serialize: key order does not matter and a key
 * whose value is `undefined` counts as absent. The store uses it to spot no-op updates.
 */
import type { KObject } from '../../api/meta.js';

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let defined = 0;
  for (const k in ra) {
    if (ra[k] === undefined) continue;
    defined++;
    if (!jsonEqual(ra[k], rb[k])) return false;
  }
  for (const k in rb) if (rb[k] !== undefined) defined--;
  return defined === 0;
}

/** A copy of `object` with `metadata.resourceVersion` replaced; nested values are shared. */
export function withResourceVersion(object: KObject, resourceVersion: string): KObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion } };
}

/** Deep equality that ignores `metadata.resourceVersion` on both sides. */
export function equalIgnoringResourceVersion(a: KObject, b: KObject): boolean {
  return jsonEqual(withResourceVersion(a, ''), withResourceVersion(b, ''));
}
