/**
 * Own-property access for JSON objects. Patch bodies are attacker-controlled and `__proto__` is a
 * legal key (a ConfigMap data key, say): plain `obj[k]` would reach Object.prototype and let a patch
 * pollute it, so every read and write of a member named by a patch goes through these.
 */
export type JsonObject = Record<string, unknown>;

export const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

export const getOwn = (obj: JsonObject, key: string): unknown => (hasOwn(obj, key) ? obj[key] : undefined);

export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}
