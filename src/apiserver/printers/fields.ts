/**
 * Small readers for untyped JSON objects, so printers can walk `spec.template.spec.containers`
 * without casting at every step. Missing or mistyped values read as empty.
 */

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function asNumber(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The object at a path of keys, or `{}` when any step is missing. */
export function objectAt(root: unknown, ...path: string[]): JsonObject {
  let cur: unknown = root;
  for (const key of path) cur = asObject(cur)[key];
  return asObject(cur);
}

/** The raw value at a path of keys, or undefined. */
export function valueAt(root: unknown, ...path: string[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as JsonObject)[key];
  }
  return cur;
}

export function stringAt(root: unknown, ...path: string[]): string {
  return asString(valueAt(root, ...path));
}

export function numberAt(root: unknown, ...path: string[]): number {
  return asNumber(valueAt(root, ...path));
}

export function arrayAt(root: unknown, ...path: string[]): unknown[] {
  return asArray(valueAt(root, ...path));
}

export function nameOf(obj: unknown): string {
  return stringAt(obj, 'metadata', 'name');
}

export function createdAt(obj: unknown): unknown {
  return valueAt(obj, 'metadata', 'creationTimestamp');
}

/** Number of keys of a map field (ConfigMap data, Secret data...). */
export function countKeys(value: unknown): number {
  return Object.keys(asObject(value)).length;
}

/** An IntOrString printed the way Go's intstr.String() does. */
export function intOrString(value: unknown): string {
  if (typeof value === 'number') return String(Math.trunc(value));
  return asString(value);
}

/** Go's printBool / printBoolPtr. */
export function boolPtr(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}
