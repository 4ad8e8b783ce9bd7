/**
 * Built-in kinds are typed: kube-apiserver decodes them into Go structs, so a value of the wrong
 * JSON type is refused before anything else looks at it, in encoding/json's words (docs/design/
 * apiserver.md, "Decoding"). This walks the object along the kind's schema and reports the first mismatch:
 * `json: cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64`.
 */
import type { KObject } from '../../api/meta.js';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { goTypeOf } from '../openapi/index.js';

/** Go's own wording for a quantity that is neither a string nor a number. */
const quantityMessage = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The first type mismatch in `obj` as Go's decoder words it, or undefined when it decodes. */
export function typeMismatch(schema: JSONSchemaProps, obj: KObject): string | undefined {
  const root = structName(schema) ?? 'Object';
  try {
    walk(obj, schema, [], root);
    return undefined;
  } catch (err) {
    if (err instanceof Mismatch) return err.message;
    throw err;
  }
}

class Mismatch extends Error {}

function walk(value: unknown, s: JSONSchemaProps, path: string[], struct: string): void {
  if (value === null || value === undefined) return; // Go leaves the zero value
  if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties) return; // raw JSON, any shape
  if (s.oneOf && !s.type) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new Mismatch(quantityMessage);
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) fail(value, path, struct, 'int32'); // IntOrString decodes a non-string as int32
    return;
  }
  switch (s.type) {
    case 'object':
      if (!isPlainObject(value)) fail(value, path, struct, goType(s));
      return walkObject(value as Record<string, unknown>, s, path, struct);
    case 'array':
      if (!Array.isArray(value)) fail(value, path, struct, goType(s));
      for (const item of value as unknown[]) if (s.items && !Array.isArray(s.items)) walk(item, s.items, path, struct);
      return;
    case 'string':
      if (typeof value !== 'string') fail(value, path, struct, 'string');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail(value, path, struct, 'bool');
      return;
    case 'integer':
      return checkInteger(value, path, struct, s.format === 'int32' ? 'int32' : 'int64');
    case 'number':
      if (typeof value !== 'number') fail(value, path, struct, 'float64');
      return;
  }
}

/** A schema's Go struct name (`PodSpec`), once per schema: every write walks the same schemas. */
const structNames = new WeakMap<JSONSchemaProps, string | null>();
function structName(s: JSONSchemaProps): string | undefined {
  let name = structNames.get(s);
  if (name === undefined) structNames.set(s, (name = goTypeOf(s)?.split('.').pop() ?? null));
  return name ?? undefined;
}

function walkObject(value: Record<string, unknown>, s: JSONSchemaProps, path: string[], struct: string): void {
  const fields = s.properties;
  const childStruct = structName(s) ?? struct;
  const extra = !fields && isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
  // the path is one stack, grown and cut back: it is only read for a mismatch
  for (const key in value) {
    const fieldSchema = fields?.[key];
    if (fieldSchema && Object.hasOwn(fields!, key)) {
      path.push(key);
      walk(value[key], fieldSchema, path, childStruct);
      path.pop();
    } else if (extra) walk(value[key], extra, path, struct);
  }
}

function checkInteger(value: unknown, path: string[], struct: string, type: 'int32' | 'int64'): void {
  const limit = type === 'int32' ? 2 ** 31 : 2 ** 63;
  if (typeof value !== 'number') return fail(value, path, struct, type);
  // A number that is not an integer of the field's size is named with its text, as Go does.
  if (!Number.isInteger(value) || value >= limit || value < -limit) throw new Mismatch(`json: cannot unmarshal number ${value} into ${where(path, struct)} of type ${type}`);
}

function fail(value: unknown, path: string[], struct: string, type: string): never {
  throw new Mismatch(`json: cannot unmarshal ${jsonKind(value)} into ${where(path, struct)} of type ${type}`);
}

function where(path: string[], struct: string): string {
  return path.length === 0 ? 'Go value' : `Go struct field ${struct}.${path.join('.')}`;
}

function goType(s: JSONSchemaProps): string {
  const named = goTypeOf(s);
  if (named) return named;
  if (s.type === 'array') return `[]${s.items && !Array.isArray(s.items) ? goType(s.items) : 'interface {}'}`;
  if (s.type === 'object') return isSchema(s.additionalProperties) ? `map[string]${goType(s.additionalProperties)}` : 'map[string]interface {}';
  if (s.type === 'integer') return s.format === 'int32' ? 'int32' : 'int64';
  return { string: 'string', boolean: 'bool', number: 'float64' }[s.type ?? ''] ?? 'interface {}';
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchema(value: unknown): value is JSONSchemaProps {
  return isPlainObject(value);
}
