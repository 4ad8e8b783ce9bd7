/**
 * The openAPIV3Schema of a CRD version (apiextensions.k8s.io/v1 JSONSchemaProps), plus the small
 * helpers every schema pass shares: JSON type names as kube-openapi reports them, path joining and
 * schema navigation.
 */

export type ListType = 'atomic' | 'set' | 'map';

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  multipleOf?: number;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: ListType;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
  /** CEL rules: accepted and stored, not evaluated (CR7, P2). */
  'x-kubernetes-validations'?: ValidationRule[];
}

/** JSON type names as kube-openapi reports them in "must be of type X: "Y"" messages. */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export function jsonTypeOf(v: unknown): JsonType {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'boolean': return 'boolean';
    case 'string': return 'string';
    case 'number': return Number.isInteger(v) ? 'integer' : 'number';
    default: return 'object';
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The schema for values of an object's non-property keys, if it has one. */
export function mapValueSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** The declared property `key` (own properties only: a field may be called "constructor"). */
export function propertyOf(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  return s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
}

/** The schema of an object's field: its property, else the map value schema. */
export function fieldSchema(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  return propertyOf(s, key) ?? mapValueSchema(s);
}

/** `a.b` joining that tolerates an empty parent and index segments. */
export function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

export function indexPath(parent: string, i: number): string {
  return `${parent}[${i}]`;
}

/** `a.b[0].c` from names and indexes, for walks that keep their path as a stack and join it only to report. */
export function joinPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const seg of segments) out = typeof seg === 'number' ? indexPath(out, seg) : childPath(out, seg);
  return out;
}

const itemSegment = /^(\d+|\*|\[\d*\]|\[\*\])$/;

/**
 * The schema at a path of field names. On an array node a segment that is an index (`0`, `[0]`),
 * `*` or `[]` selects the item schema; on a map node any unknown key selects the value schema.
 * Returns undefined where the schema says nothing (unknown or preserved fields).
 */
export function schemaAt(schema: JSONSchemaProps, path: string[]): JSONSchemaProps | undefined {
  let s: JSONSchemaProps | undefined = schema;
  for (const seg of path) {
    if (!s) return undefined;
    if (s.items && itemSegment.test(seg)) s = s.items;
    else s = fieldSchema(s, seg);
  }
  return s;
}
