/**
 * Schemas of built-in kinds derived from @kubernetes/client-node's model classes, in two forms:
 * `builtinSchema` inlines everything (for unknown-field detection in the registry) and
 * `builtinComponents` produces upstream-named `components.schemas` with `$ref`s for OpenAPI v3.
 */
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { listExtensions, quantityFields } from './field-extensions.js';
import { classDoc, classForKind, modelAttributes } from './models.js';
import { schemaName, specialNames } from './schema-names.js';
import { preserveUnknownFields, specialSchemas, typeToSchema, type OpenApiSchema, type Resolver, type SpecialType } from './schema-types.js';

/** The Go type each inlined class schema stands for (`v1.PodSpec`), for decode errors as Go words them. */
const goTypes = new WeakMap<object, string>();

/** `v1.PodSpec` for the schema of client model V1PodSpec; undefined for other schemas. */
export function goTypeOf(schema: object): string | undefined {
  return goTypes.get(schema);
}

/** The object schema of a model class, its fields typed through `resolver`. */
function classSchema(className: string, resolver: Resolver, withDocs: boolean): OpenApiSchema {
  const doc = withDocs ? classDoc(className) : undefined;
  const properties: Record<string, OpenApiSchema> = {};
  const required: string[] = [];
  for (const attr of modelAttributes(className) ?? []) {
    const key = `${className}.${attr.baseName}`;
    let prop = typeToSchema(attr.type, attr.format, resolver, quantityFields.has(key));
    const fieldDoc = doc?.fields.get(attr.name);
    if (fieldDoc?.description) prop = prop.$ref ? { allOf: [prop], description: fieldDoc.description } : { ...prop, description: fieldDoc.description };
    if (fieldDoc?.required) required.push(attr.baseName);
    properties[attr.baseName] = { ...prop, ...listExtensions[key] };
    const goType = goTypes.get(prop);
    if (goType) goTypes.set(properties[attr.baseName]!, goType);
  }
  const schema: OpenApiSchema = { type: 'object', properties };
  if (doc?.description) schema.description = doc.description;
  if (required.length > 0) schema.required = required;
  return schema;
}

function gvkExtension(group: string, version: string, kind: string): OpenApiSchema {
  return { 'x-kubernetes-group-version-kind': [{ group, kind, version }] };
}

/** Deep-freezes a schema graph so shared sub-schemas cannot be changed by one consumer. */
function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freeze(v);
  }
  return value;
}

const inlineCache = new Map<string, OpenApiSchema>();

/** Special scalars inlined the way CRD schemas spell them, so CRD-aware validators understand them. */
const inlineSpecials: Record<SpecialType, OpenApiSchema> = {
  Time: { type: 'string', format: 'date-time' },
  MicroTime: { type: 'string', format: 'date-time' },
  IntOrString: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
  Quantity: { oneOf: [{ type: 'string' }, { type: 'number' }] },
};

/** Inlines a class; a class already being expanded (JSONSchemaProps) becomes a preserve-unknown-fields stub. */
function inlineClass(className: string, stack: Set<string>): OpenApiSchema {
  const cached = inlineCache.get(className);
  if (cached) return cached;
  if (stack.has(className) || !modelAttributes(className)) return preserveUnknownFields();
  stack.add(className);
  const resolver: Resolver = {
    model: (c) => inlineClass(c, stack),
    special: (t) => inlineSpecials[t],
  };
  const schema = classSchema(className, resolver, false);
  stack.delete(className);
  inlineCache.set(className, freeze(schema));
  const versioned = /^(V\d+(?:alpha\d+|beta\d+)?)(.+)$/.exec(className);
  if (versioned) goTypes.set(schema, `${versioned[1]!.toLowerCase()}.${versioned[2]}`);
  return schema;
}

/**
 * The fully inlined schema of a built-in kind, or undefined when client models do not know it.
 * Sub-schemas are shared between kinds and frozen: treat the result as read-only.
 */
export function builtinSchema(group: string, version: string, kind: string): JSONSchemaProps | undefined {
  const cls = classForKind(group, version, kind);
  if (!cls) return undefined;
  const inlined = inlineClass(cls, new Set());
  const schema = freeze({ ...inlined, ...gvkExtension(group, version, kind) });
  const goType = goTypeOf(inlined);
  if (goType) goTypes.set(schema, goType);
  return schema;
}

export interface Components {
  /** Component name of the requested kind. */
  name: string;
  schemas: Record<string, OpenApiSchema>;
}

/** Adds a class and everything it references to `schemas`, named for a document of `contextGroup`. */
export function addClassComponents(className: string, contextGroup: string, schemas: Record<string, OpenApiSchema>): string {
  const name = schemaName(className, contextGroup);
  if (schemas[name]) return name;
  schemas[name] = preserveUnknownFields(); // placeholder, breaks reference cycles
  const resolver: Resolver = {
    model: (c) => (modelAttributes(c) ? { $ref: `#/components/schemas/${addClassComponents(c, contextGroup, schemas)}` } : preserveUnknownFields()),
    special: (t) => {
      schemas[specialNames[t]] ??= specialSchemas[t];
      return { $ref: `#/components/schemas/${specialNames[t]}` };
    },
  };
  schemas[name] = classSchema(className, resolver, true);
  return name;
}

/** Adds `components.schemas` entries for a built-in kind, its list kind and what they reference. */
export function builtinComponents(group: string, version: string, kind: string, schemas: Record<string, OpenApiSchema> = {}): Components | undefined {
  const cls = classForKind(group, version, kind);
  if (!cls) return undefined;
  const name = addClassComponents(cls, group, schemas);
  schemas[name] = { ...schemas[name], ...gvkExtension(group, version, kind) };
  const listCls = classForKind(group, version, `${kind}List`);
  if (listCls) {
    const listName = addClassComponents(listCls, group, schemas);
    schemas[listName] = { ...schemas[listName], ...gvkExtension(group, version, `${kind}List`) };
  }
  return { name, schemas };
}
