/**
 * Pruning of fields a CRD schema does not declare, as apiextensions does when decoding a custom
 * resource, and reporting them for fieldValidation=Strict/Warn (`unknown field "spec.foo"`).
 */
import { fieldSchema, isObject, joinPath, type JSONSchemaProps } from './types.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes undeclared fields from `obj` in place and returns their paths (`spec.foo`,
 * `spec.items[0].bar`). apiVersion/kind/metadata survive at the root and in embedded resources
 * (their metadata is left alone). Under `x-kubernetes-preserve-unknown-fields` unknown fields stay
 * but declared ones are still pruned inside. Like the upstream decoder it then drops nulls of
 * non-nullable fields without a default, so they read as absent instead of failing validation.
 */
export function pruneUnknownFields(schema: JSONSchemaProps, obj: unknown): string[] {
  const pruned: string[] = [];
  pruneNode(obj, schema, [], pruned, true, true);
  dropNonNullableNulls(schema, obj);
  return pruned;
}

/** The paths pruneUnknownFields would remove, without touching `obj` (unknown-field warnings for built-ins). */
export function findUnknownFields(schema: JSONSchemaProps, obj: unknown): string[] {
  const found: string[] = [];
  pruneNode(obj, schema, [], found, false, true);
  return found;
}

/**
 * `path`: names and indexes from the root, a stack joined only for a field that is reported.
 * `remove`: delete what is unknown (false only reports it). `isResource`: apiVersion/kind/metadata
 * are kept (resource root or embedded resource). `inheritedPreserve`: unknown fields at this level
 * are kept (inherited through array items, as upstream does).
 */
function pruneNode(x: unknown, s: JSONSchemaProps | undefined, path: (string | number)[], out: string[], remove: boolean, isResource = false, inheritedPreserve = false): void {
  const preserve = inheritedPreserve || s?.['x-kubernetes-preserve-unknown-fields'] === true;
  if (Array.isArray(x)) {
    if (preserve && !s?.items) return;
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      pruneNode(x[i], s?.items, path, out, remove, false, preserve);
      path.pop();
    }
    return;
  }
  if (!isObject(x)) return;
  const keepMeta = isResource || s?.['x-kubernetes-embedded-resource'] === true;
  for (const key in x) {
    if (keepMeta && metaFields.has(key)) continue;
    const child = s && fieldSchema(s, key);
    path.push(key);
    if (child) pruneNode(x[key], child, path, out, remove);
    else if (!preserve && s?.additionalProperties !== true) {
      out.push(joinPath(path));
      if (remove) delete x[key];
    }
    path.pop();
  }
}

/** Drops `null` values of fields that are neither nullable nor defaulted (upstream runs this after pruning). */
export function dropNonNullableNulls(schema: JSONSchemaProps | undefined, x: unknown): void {
  if (!schema) return;
  if (Array.isArray(x)) {
    for (const item of x) dropNonNullableNulls(schema.items, item);
    return;
  }
  if (!isObject(x)) return;
  for (const key in x) {
    const s = fieldSchema(schema, key);
    if (!s) continue;
    if (x[key] === null && !s.nullable && s.default === undefined) delete x[key];
    else dropNonNullableNulls(s, x[key]);
  }
}
