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
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/**
 * Deep copy of a JSON value. structuredClone is slower for plain JSON trees of this size; a stored
 * object's remembered text saves the encoding half (performance.md §20).
 */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(jsonText(value)) as T);
}
