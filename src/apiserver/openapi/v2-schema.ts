/**
 * OpenAPI v3 schema -> Swagger 2.0 schema, shaped so kube-openapi's proto parser (which kubectl
 * 1.27/1.28 run over /openapi/v2) accepts every node: one type per schema, arrays with items,
 * `$ref`s into `#/definitions/`, and no oneOf/anyOf (int-or-string becomes a formatted string,
 * other unions become untyped "arbitrary" values).
 */

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function v2Ref(ref: string): string {
  return ref.replace('#/components/schemas/', '#/definitions/');
}

const copied = [
  'description', 'format', 'title', 'pattern', 'default', 'example', 'enum', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties',
  'maxProperties',
];

function commonFields(s: Json): Json {
  const out: Json = {};
  for (const key of copied) if (s[key] !== undefined) out[key] = s[key];
  for (const [key, value] of Object.entries(s)) if (key.startsWith('x-')) out[key] = value;
  if (Array.isArray(s.required) && s.required.length > 0) out.required = s.required;
  return out;
}

/** A single `$ref` wrapped in allOf (v3's way to give a reference a description). */
function wrappedRef(s: Json): string | undefined {
  if (!Array.isArray(s.allOf) || s.allOf.length !== 1 || s.properties) return undefined;
  const inner: unknown = s.allOf[0];
  return isRecord(inner) && typeof inner.$ref === 'string' ? inner.$ref : undefined;
}

function unionType(s: Json, out: Json): void {
  const alternatives = [...(Array.isArray(s.oneOf) ? s.oneOf : []), ...(Array.isArray(s.anyOf) ? s.anyOf : [])];
  const types = new Set(alternatives.map((a) => (isRecord(a) ? a.type : undefined)));
  if (s['x-kubernetes-int-or-string'] === true || (types.has('integer') && types.has('string') && types.size === 2)) {
    out.type = 'string';
    out.format = 'int-or-string';
  } else if (types.has('string') && types.has('number') && types.size === 2) {
    out.type = 'string'; // resource.Quantity, published as a string in v2
  }
}

export function toV2Schema(schema: unknown): Json {
  if (!isRecord(schema)) return {};
  const ref = typeof schema.$ref === 'string' ? schema.$ref : wrappedRef(schema);
  const out = commonFields(schema);
  if (ref) return { ...out, $ref: v2Ref(ref) };
  const type = schema.type;
  if (type === 'array') {
    if (isRecord(schema.items)) Object.assign(out, { type, items: toV2Schema(schema.items) });
  } else if (type === 'object' || (type === undefined && isRecord(schema.properties))) {
    out.type = 'object';
    if (isRecord(schema.properties)) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, toV2Schema(v)]));
    }
    const ap = schema.additionalProperties;
    if (isRecord(ap)) out.additionalProperties = toV2Schema(ap);
    else if (typeof ap === 'boolean') out.additionalProperties = ap;
  } else if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') {
    out.type = type;
  } else if (type === undefined) {
    unionType(schema, out);
  }
  return out;
}
