/**
 * Small JSON helpers shared by the per-kind converters. Converters work on a private deep copy of
 * the object (made once by convertKruiseObject), so they may mutate it in place.
 */
import type { KObject } from '../../meta.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `obj[key]` when it is a JSON object. */
export function child(obj: unknown, key: string): Obj | undefined {
  if (!isObj(obj)) return undefined;
  const v = obj[key];
  return isObj(v) ? v : undefined;
}

/** The JSON objects of the array at `obj[key]` (other entries are skipped). */
export function children(obj: unknown, key: string): Obj[] {
  if (!isObj(obj)) return [];
  const v = obj[key];
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** Moves `obj[from]` to `obj[to]` when present (a value already at `to` is replaced). */
export function rename(obj: Obj | undefined, from: string, to: string): void {
  if (!obj || !(from in obj)) return;
  obj[to] = obj[from];
  delete obj[from];
}

/** Deletes `obj[key]` when it is an empty object. */
export function dropIfEmpty(obj: Obj | undefined, key: string): void {
  const v = obj?.[key];
  if (obj && isObj(v) && Object.keys(v).length === 0) delete obj[key];
}

/** Labels and annotations of an object or of an embedded template's metadata. */
export interface MetaLike { labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown }
type MetaMap = 'labels' | 'annotations';

export function metaValue(meta: MetaLike | undefined, map: MetaMap, key: string): string | undefined {
  const m = meta?.[map];
  return m && Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
}

export function setMetaValue(meta: MetaLike, map: MetaMap, key: string, value: string): void {
  (meta[map] ??= {})[key] = value;
}

/** Removes a label/annotation, and the map itself once empty. */
export function deleteMetaValue(meta: MetaLike, map: MetaMap, key: string): void {
  const m = meta[map];
  if (!m) return;
  delete m[key];
  if (Object.keys(m).length === 0) delete meta[map];
}

/** `namespace/name` (or `name`) for error messages. */
export function objectKey(obj: KObject): string {
  const { namespace, name } = obj.metadata ?? {};
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '<unnamed>');
}

/** Go's strconv.ParseInt(s, 10, 32): optional sign, decimal digits, int32 range. */
export function parseInt32(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** Go's intstr.Parse: an integer when the string is one, else the string itself. */
export function parseIntOrString(s: string): number | string {
  return parseInt32(s) ?? s;
}

/** A conversion that cannot be done (the /convert endpoint reports its message as the failure). */
export class ConversionError extends Error {
  override name = 'ConversionError';
}

/** How one non-hub (spoke) version converts to and from the hub. Both get an owned copy. */
export interface SpokeConversion {
  toHub(obj: KObject): KObject;
  fromHub(obj: KObject): KObject;
}

/** The conversions of one kind, keyed by spoke version (the hub is the kind's storage version). */
export interface KindConversion {
  group: string;
  kind: string;
  spokes: Record<string, SpokeConversion>;
}

/** For versions whose schemas are identical: only apiVersion changes. */
export const identityConversion: SpokeConversion = { toHub: (obj) => obj, fromHub: (obj) => obj };

/** `obj.spec` / `obj.status` when they are objects. */
export const specOf = (obj: KObject): Obj | undefined => child(obj, 'spec');
export const statusOf = (obj: KObject): Obj | undefined => child(obj, 'status');

/** `obj[key]` as an object, created empty when absent. */
export function ensureChild(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (isObj(v)) return v;
  const created: Obj = {};
  obj[key] = created;
  return created;
}
