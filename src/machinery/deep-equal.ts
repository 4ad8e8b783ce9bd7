import { jsonText } from './json-text.js';

/** Structural equality of JSON values (key order ignored), the comparison behind no-op writes. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  // keys walked in place, no arrays made: every write compares most of an object with its old one
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let defined = 0;
  for (const k in ao) {
    const v = ao[k];
    if (v === undefined) continue;
    if (!deepEqual(v, bo[k])) return false;
    defined++;
  }
  for (const k in bo) if (bo[k] !== undefined) defined--;
  return defined === 0;
}

/**
 * Deep copy of a JSON value. structuredClone is slower for plain JSON trees of this size; a stored
 * object's remembered text saves the encoding half (performance.md §20).
 */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(jsonText(value)) as T);
}
