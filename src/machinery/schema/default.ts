/**
 * Structural defaulting of custom resources from `default:` values in the schema, as apiextensions
 * applies it on create, update and when reading stored objects.
 */
import { isObject, mapValueSchema, propertyOf, type JSONSchemaProps } from './types.js';

/** A null where the schema forbids null but offers a default: upstream replaces it. */
function replaceableNull(v: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps {
  return v === null && s !== undefined && !s.nullable && s.default !== undefined;
}

/**
 * Fills in defaults in place: a property with a `default` is set when it is missing (or null and
 * not nullable), but only inside objects that exist, so nested defaults need their parent present.
 * Array items and map values are defaulted too. Defaults are deep-copied and then defaulted
 * themselves, so a default object picks up its own nested defaults.
 */
export function applyDefaults(schema: JSONSchemaProps | undefined, obj: unknown): void {
  if (!schema) return;
  if (Array.isArray(obj)) {
    const items = schema.items;
    obj.forEach((item, i) => {
      if (replaceableNull(item, items)) obj[i] = structuredClone(items.default);
      applyDefaults(items, obj[i]);
    });
    return;
  }
  if (!isObject(obj)) return;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!Object.hasOwn(obj, key) || replaceableNull(obj[key], prop)) obj[key] = structuredClone(prop.default);
  }
  const valueSchema = mapValueSchema(schema);
  for (const key of Object.keys(obj)) {
    const prop = propertyOf(schema, key);
    if (prop) {
      applyDefaults(prop, obj[key]);
    } else if (valueSchema) {
      if (replaceableNull(obj[key], valueSchema)) obj[key] = structuredClone(valueSchema.default);
      applyDefaults(valueSchema, obj[key]);
    }
  }
}
