/**
 * Small helpers for reading and defaulting plain JSON objects in place. Built-in kinds are kept as
 * untyped JSON (what the wire, the store and the strategies all see), so strategies walk them with
 * these instead of casting to full typed models.
 */
import { isObject } from '../api/meta.js';

export type Json = Record<string, unknown>;

/** The child object at `key`, or undefined when absent or not an object. */
export function child(parent: unknown, key: string): Json | undefined {
  if (!isObject(parent)) return undefined;
  const v = parent[key];
  return isObject(v) ? v : undefined;
}

/** The child object at `key`, created (replacing null or a non-object) when missing. */
export function ensure(parent: Json, key: string): Json {
  const v = parent[key];
  if (isObject(v)) return v;
  const created: Json = {};
  parent[key] = created;
  return created;
}

/** The object elements of the array at `key` (other elements are skipped). */
export function items(parent: unknown, key: string): Json[] {
  if (!isObject(parent)) return [];
  const v = parent[key];
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export function str(parent: unknown, key: string): string {
  if (!isObject(parent)) return '';
  const v = parent[key];
  return typeof v === 'string' ? v : '';
}

export function num(parent: unknown, key: string): number | undefined {
  if (!isObject(parent)) return undefined;
  const v = parent[key];
  return typeof v === 'number' ? v : undefined;
}

export function strings(parent: unknown, key: string): string[] {
  if (!isObject(parent)) return [];
  const v = parent[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Present in the Go sense of a pointer field: neither absent nor JSON null. */
export function has(parent: unknown, key: string): boolean {
  return isObject(parent) && parent[key] !== undefined && parent[key] !== null;
}

/** Defaults a pointer-like field: applies when absent or null. */
export function setDefault(o: Json, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** Defaults a Go string field: applies when absent, null or empty. */
export function setDefaultString(o: Json, key: string, value: string): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

/** A string-valued map (labels, selectors); non-string values are dropped. */
export function stringMap(parent: unknown, key: string): Record<string, string> {
  const m = child(parent, key);
  const out: Record<string, string> = {};
  if (!m) return out;
  for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}

export { isObject };
