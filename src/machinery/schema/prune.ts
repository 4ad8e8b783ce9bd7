/**
 * Pruning of fields a CRD schema does not declare, as apiextensions does when decoding a custom
 * resource, and reporting them for fieldValidation=Strict/Warn (`unknown field "spec.foo"`).
 */
import { childPath, fieldSchema, indexPath, isObject, type JSONSchemaProps } from './types.js';

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
  pruneNode(obj, schema, [], pruned, { isResource: true, preserve: false, remove: true });
  dropNonNullableNulls(schema, obj);
  return pruned;
}

/** The paths pruneUnknownFields would remove, without touching `obj` (unknown-field warnings for built-ins). */
export function findUnknownFields(schema: JSONSchemaProps, obj: unknown): string[] {
  const found: string[] = [];
  pruneNode(obj, schema, [], found, { isResource: true, preserve: false, remove: false });
  return found;
}

interface Mode {
  /** apiVersion/kind/metadata are kept (resource root or embedded resource). */
  isResource: boolean;
  /** Unknown fields at this level are kept (inherited through array items, as upstream does). */
  preserve: boolean;
  /** Delete what is unknown (false only reports it). */
  remove: boolean;
}

/** The modes below a root: every write walks each field, so none is made per field. */
const inner = (preserve: boolean, remove: boolean): Mode => innerModes[Number(preserve) * 2 + Number(remove)]!;
const innerModes: readonly Mode[] = [false, true].flatMap((preserve) => [false, true].map((remove) => Object.freeze({ isResource: false, preserve, remove })));

/** Names and indexes from the root, joined only for a field that is reported. */
type Path = (string | number)[];

function joinPath(path: Path, key: string): string {
  let out = '';
  for (const seg of path) out = typeof seg === 'number' ? indexPath(out, seg) : childPath(out, seg);
  return childPath(out, key);
}

function pruneNode(x: unknown, s: JSONSchemaProps | undefined, path: Path, out: string[], mode: Mode): void {
  const preserve = mode.preserve || s?.['x-kubernetes-preserve-unknown-fields'] === true;
  if (Array.isArray(x)) {
    if (preserve && !s?.items) return;
    const itemMode = inner(preserve, mode.remove);
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      pruneNode(x[i], s?.items, path, out, itemMode);
      path.pop();
    }
    return;
  }
  if (!isObject(x)) return;
  const keepMeta = mode.isResource || s?.['x-kubernetes-embedded-resource'] === true;
  const fieldMode = inner(false, mode.remove);
  for (const key in x) {
    if (keepMeta && metaFields.has(key)) continue;
    const child = s && fieldSchema(s, key);
    if (child) {
      path.push(key);
      pruneNode(x[key], child, path, out, fieldMode);
      path.pop();
    } else if (!preserve && s?.additionalProperties !== true) {
      out.push(joinPath(path, key));
      if (mode.remove) delete x[key];
    }
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
