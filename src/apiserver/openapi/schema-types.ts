/**
 * Turning a client model's type string (`Array<V1Container>`, `{ [key: string]: string; }`,
 * `IntOrString`, `Date`, `any`...) into an OpenAPI schema. Whether a nested class or a special
 * scalar becomes a `$ref` or an inlined schema is up to the caller's resolver.
 */
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import type { ListExtensions } from './field-extensions.js';

/** JSONSchemaProps plus what OpenAPI documents also carry: `$ref` and the patch/GVK extensions. */
export interface OpenApiSchema extends JSONSchemaProps, ListExtensions {
  $ref?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

export type SpecialType = 'Time' | 'MicroTime' | 'IntOrString' | 'Quantity';

export interface Resolver {
  /** The schema (or `$ref`) of a nested model class. */
  model(className: string): OpenApiSchema;
  /** The schema (or `$ref`) of a scalar type that has its own component upstream. */
  special(type: SpecialType): OpenApiSchema;
}

/** Literal schemas of the special scalars, as upstream's OpenAPI v3 spells them. */
export const specialSchemas: Record<SpecialType, OpenApiSchema> = {
  Time: {
    type: 'string',
    format: 'date-time',
    description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.',
  },
  MicroTime: {
    type: 'string',
    format: 'date-time',
    description: 'MicroTime is version of Time with microsecond level precision.',
  },
  IntOrString: {
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
    description: 'IntOrString is a type that can hold an int32 or a string.',
  },
  Quantity: {
    oneOf: [{ type: 'string' }, { type: 'number' }],
    description: 'Quantity is a fixed-point representation of a number, such as "100m", "1Gi" or 2.',
  },
};

export const preserveUnknownFields = (): OpenApiSchema => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

const arrayType = /^Array<(.+)>$/;
const mapType = /^\{ \[key: string\]: (.+); \}$/;

function scalar(type: string, format: string): OpenApiSchema | undefined {
  switch (type) {
    case 'string':
      return format === 'byte' ? { type: 'string', format: 'byte' } : { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return format === 'int32' || format === 'int64' ? { type: 'integer', format } : { type: 'number', format: 'double' };
    case 'any':
    case 'object':
      return preserveUnknownFields();
    default:
      return undefined;
  }
}

/**
 * The schema of a type string. `quantity` marks fields known to hold resource quantities, which
 * client models declare as plain strings.
 */
export function typeToSchema(type: string, format: string, resolver: Resolver, quantity = false): OpenApiSchema {
  const array = arrayType.exec(type);
  if (array) return { type: 'array', items: typeToSchema(array[1], format, resolver, quantity) };
  const map = mapType.exec(type);
  if (map) return { type: 'object', additionalProperties: typeToSchema(map[1], format, resolver, quantity) };
  if (quantity && type === 'string') return resolver.special('Quantity');
  if (type === 'Date') return resolver.special('Time');
  if (type === 'V1MicroTime') return resolver.special('MicroTime');
  if (type === 'IntOrString') return resolver.special('IntOrString');
  return scalar(type, format) ?? resolver.model(type);
}
