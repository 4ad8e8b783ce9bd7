/**
 * Validation of a custom resource against a structural openAPIV3Schema, with the error shapes
 * kube-apiserver produces: kube-openapi's messages ("spec.replicas in body must be of type
 * integer: "string""), converted to field errors the way apiextensions does, followed by the
 * embedded-resource and list-type (set/map uniqueness) passes. Runs on the decoded, defaulted and
 * pruned object (see index.ts for the order).
 */
import { field, type FieldError } from '../errors.js';
import { goJson as canonicalJson } from '../hash.js';
import { indexPath, isObject, jsonTypeOf, mapValueSchema, type JSONSchemaProps } from './types.js';

/** Where errors go; `base` prefixes every field path (upstream passes a nil path: "<nil>"). */
interface Ctx { base: string; errs: FieldError[] }

/** Field path for schema path `name` ("spec.replicas"); empty means the validated value itself. */
function at(ctx: Ctx, name: string): string {
  const rel = name.startsWith('.') ? name.slice(1) : name;
  if (ctx.base === '') return rel === '' ? '<nil>' : rel;
  if (rel === '') return ctx.base;
  return rel.startsWith('[') ? ctx.base + rel : `${ctx.base}.${rel}`;
}

/**
 * Validates `obj` against `schema`. With basePath '' the object is a whole custom resource and its
 * `metadata` is left to ObjectMeta validation, as upstream does.
 */
export function validateAgainstSchema(schema: JSONSchemaProps, obj: unknown, basePath = ''): FieldError[] {
  const ctx: Ctx = { base: basePath, errs: [] };
  validateNode(schema, obj, '', ctx, basePath === '');
  return ctx.errs;
}

/** One schema node, in kube-openapi's validator order: type, junctors, kind-specific, enum, object. */
function validateNode(s: JSONSchemaProps, v: unknown, name: string, ctx: Ctx, isResource = false): void {
  checkType(s, v, name, ctx);
  if (v === null || v === undefined) return checkEnum(s, v, name, ctx); // nulls skip everything else
  checkJunctors(s, v, name, ctx);
  if (typeof v === 'string') checkString(s, v, name, ctx);
  if (typeof v === 'number') checkNumber(s, v, name, ctx);
  if (Array.isArray(v)) checkArray(s, v, name, ctx);
  checkEnum(s, v, name, ctx);
  if (isObject(v)) checkObject(s, v, name, ctx, isResource);
}

function declaredTypes(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

function typeError(ctx: Ctx, name: string, expected: string, actual: string): void {
  ctx.errs.push(field.typeInvalid(at(ctx, name), actual, `${name} in body must be of type ${expected}: "${actual}"`));
}

function checkType(s: JSONSchemaProps, v: unknown, name: string, ctx: Ctx): void {
  const types = declaredTypes(s);
  const actual = jsonTypeOf(v);
  if (actual === 'null') {
    if (types.length > 0 && !s.nullable) typeError(ctx, name, types.join(','), 'null');
    return;
  }
  const numeric = types.includes('integer') || types.includes('number');
  const matches = types.includes(actual) || (actual === 'integer' && types.includes('number'));
  // A format on a non-string type is compared against the value's Go number format (quirk kept).
  if (s.format && actual !== 'string' && actual !== 'array' && !matches) {
    const goFormat = actual === 'integer' ? 'int64' : actual === 'number' ? 'float64' : '';
    if (goFormat !== s.format) return typeError(ctx, name, s.format, goFormat);
  }
  if (s.format && !numeric && (actual === 'string' || actual === 'array')) return;
  if (types.length > 0 && !matches) typeError(ctx, name, types.join(','), actual);
}

function composite(ctx: Ctx, message: string): void {
  ctx.errs.push(field.invalid(ctx.base === '' ? '<nil>' : ctx.base, '', message));
}

function branchErrors(branch: JSONSchemaProps, v: unknown, name: string, ctx: Ctx): FieldError[] {
  const sub: Ctx = { base: ctx.base, errs: [] };
  validateNode(branch, v, name, sub);
  return sub.errs;
}

/** allOf/anyOf/oneOf/not: value checks whose failures add kube-openapi's composite message. */
function checkJunctors(s: JSONSchemaProps, v: unknown, name: string, ctx: Ctx): void {
  const q = JSON.stringify(name);
  if (s.anyOf?.length) {
    const results = s.anyOf.map((b) => branchErrors(b, v, name, ctx));
    if (!results.some((r) => r.length === 0)) {
      composite(ctx, `${q} must validate at least one schema (anyOf)`);
      ctx.errs.push(...fewest(results));
    }
  }
  if (s.oneOf?.length) {
    const results = s.oneOf.map((b) => branchErrors(b, v, name, ctx));
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      composite(ctx, `${q} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`);
      if (valid === 0) ctx.errs.push(...fewest(results));
    }
  }
  if (s.allOf?.length) {
    const results = s.allOf.map((b) => branchErrors(b, v, name, ctx));
    const valid = results.filter((r) => r.length === 0).length;
    for (const r of results) ctx.errs.push(...r);
    if (valid !== results.length) composite(ctx, `${q} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`);
  }
  if (s.not && branchErrors(s.not, v, name, ctx).length === 0) composite(ctx, `${q} must not validate the schema (not)`);
}

/** Upstream reports the failures of the branch that matched best; the first with fewest errors is close. */
function fewest(results: FieldError[][]): FieldError[] {
  return results.reduce((best, r) => (r.length < best.length ? r : best));
}

const regexCache = new Map<string, RegExp | Error>();

function tryRegExp(pattern: string, flags: string): RegExp | Error {
  try { return new RegExp(pattern, flags); } catch (e) { return e instanceof Error ? e : new Error(String(e)); }
}

function compile(pattern: string): RegExp | Error {
  let re = regexCache.get(pattern);
  if (!re) {
    const unicode = tryRegExp(pattern, 'u');
    // RE2 accepts escapes such as `\_` that unicode mode refuses; plain mode takes them.
    const plain = unicode instanceof Error ? tryRegExp(pattern, '') : unicode;
    re = plain instanceof RegExp ? plain : unicode;
    regexCache.set(pattern, re);
  }
  return re;
}

function checkString(s: JSONSchemaProps, v: string, name: string, ctx: Ctx): void {
  const path = at(ctx, name);
  const length = [...v].length; // runes, like utf8.RuneCount
  if (s.maxLength !== undefined && length > s.maxLength) {
    // field.TooLong prints no value (1.32: "Too long: may not be more than N bytes").
    ctx.errs.push({ type: 'FieldValueTooLong', field: path, detail: `may not be more than ${s.maxLength} bytes` });
  }
  if (s.minLength !== undefined && length < s.minLength) {
    ctx.errs.push(field.invalid(path, v, `${name} in body should be at least ${s.minLength} chars long`));
  }
  if (s.pattern !== undefined) {
    const re = compile(s.pattern);
    if (re instanceof Error) {
      ctx.errs.push(field.invalid(path, v, `${name} in body should match '${s.pattern}, but pattern is invalid: ${re.message}'`));
    } else if (!re.test(v)) {
      ctx.errs.push(field.invalid(path, v, `${name} in body should match '${s.pattern}'`));
    }
  }
  if (s.format && formats[s.format]?.test(v) === false) {
    ctx.errs.push(field.typeInvalid(path, v, `${name} in body must be of type ${s.format}: ${JSON.stringify(v)}`));
  }
}

function checkNumber(s: JSONSchemaProps, v: number, name: string, ctx: Ctx): void {
  const path = at(ctx, name);
  if (s.multipleOf !== undefined && s.multipleOf > 0) {
    const q = s.multipleOf < 1 ? (1 / s.multipleOf) * v : v / s.multipleOf;
    if (!Number.isInteger(q)) ctx.errs.push(field.invalid(path, v, `${name} in body should be a multiple of ${s.multipleOf}`));
  }
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    const word = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
    ctx.errs.push(field.invalid(path, v, `${name} in body should be ${word} ${s.maximum}`));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    const word = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
    ctx.errs.push(field.invalid(path, v, `${name} in body should be ${word} ${s.minimum}`));
  }
}

/**
 * field.TooMany prints "Too many: <actual>: must have at most <max> items". errors.ts drops the
 * value of TooMany errors, so the count goes into the detail to print the same text.
 */
function tooMany(path: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field: path, detail: `${actual}: must have at most ${max} items` };
}

function checkArray(s: JSONSchemaProps, v: unknown[], name: string, ctx: Ctx): void {
  const items = s.items;
  if (items) v.forEach((item, i) => validateNode(items, item, `${name}[${i}]`, ctx));
  const path = at(ctx, name);
  if (s.minItems !== undefined && v.length < s.minItems) {
    ctx.errs.push(field.invalid(path, v.length, `${name} in body should have at least ${s.minItems} items`));
  }
  if (s.maxItems !== undefined && v.length > s.maxItems) ctx.errs.push(tooMany(path, v.length, s.maxItems));
  if (s.uniqueItems && new Set(v.map(canonicalJson)).size !== v.length) {
    ctx.errs.push(field.invalid(path, '', `${name} in body shouldn't contain duplicates`));
  }
  checkListType(s, v, path, ctx);
}

function checkEnum(s: JSONSchemaProps, v: unknown, name: string, ctx: Ctx): void {
  if (!s.enum?.length) return;
  const key = canonicalJson(v);
  if (s.enum.some((e) => canonicalJson(e) === key)) return;
  const allowed = s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  ctx.errs.push(field.notSupported(at(ctx, name), v ?? null, allowed));
}

function checkObject(s: JSONSchemaProps, v: Record<string, unknown>, name: string, ctx: Ctx, isResource: boolean): void {
  const path = at(ctx, name);
  const count = Object.keys(v).length;
  // Property-count failures stop the object validator before it looks at any property.
  if (s.minProperties !== undefined && count < s.minProperties) {
    return void ctx.errs.push(field.invalid(path, count, `${name} in body should have at least ${s.minProperties} properties`));
  }
  if (s.maxProperties !== undefined && count > s.maxProperties) return void ctx.errs.push(tooMany(path, count, s.maxProperties));
  const props = s.properties ?? {};
  const valueSchema = mapValueSchema(s);
  if (valueSchema) {
    for (const [k, x] of Object.entries(v)) if (!Object.hasOwn(props, k)) validateNode(valueSchema, x, `${name}.${k}`, ctx);
  }
  for (const [k, ps] of Object.entries(props)) {
    if (isResource && k === 'metadata') continue;
    if (Object.hasOwn(v, k)) validateNode(ps, v[k], name === '' ? k : `${name}.${k}`, ctx);
  }
  for (const k of s.required ?? []) {
    if (!Object.hasOwn(v, k)) ctx.errs.push(field.required(at(ctx, `${name}.${k}`)));
  }
  if (s['x-kubernetes-embedded-resource'] && !isResource) checkEmbeddedResource(v, path, ctx);
}

/** The string formats kube-openapi's registry knows; other formats are not checked. */
const formats: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  uuid: /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  ipv6: /^[0-9a-f:.]*:[0-9a-f:.]*$/i,
  cidr: /^([0-9.]+|[0-9a-f:.]*:[0-9a-f:.]*)\/\d{1,3}$/i,
  mac: /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i,
  duration: /^([-+]?\d+(\.\d+)?\s*(ns|us|µs|ms|s|m|h|d|w)\s*)+$/,
};
formats.datetime = formats['date-time'];

/** x-kubernetes-list-type set/map: the second occurrence of each repeated element or key is a Duplicate. */
function checkListType(s: JSONSchemaProps, list: unknown[], path: string, ctx: Ctx): void {
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') {
    for (const i of repeats(list)) ctx.errs.push(field.duplicate(indexPath(path, i), list[i]));
  } else if (type === 'map') {
    const bad = list.findIndex((x) => x !== null && !isObject(x));
    if (bad >= 0) return void ctx.errs.push(field.invalid(indexPath(path, bad), list[bad], 'must be an object for an array of list-type map'));
    const keys = list.map((x) => {
      const key: Record<string, unknown> = {};
      for (const k of s['x-kubernetes-list-map-keys'] ?? []) if (isObject(x) && Object.hasOwn(x, k)) key[k] = x[k];
      return key;
    });
    for (const i of repeats(keys)) ctx.errs.push(field.duplicate(indexPath(path, i), keys[i]));
  }
}

function repeats(list: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const key = canonicalJson(x);
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  });
  return out;
}

const dns1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const dns1035Message = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** x-kubernetes-embedded-resource: apiVersion and kind are required, metadata is optional. */
function checkEmbeddedResource(v: Record<string, unknown>, path: string, ctx: Ctx): void {
  const child = (k: string) => (path === '<nil>' ? k : `${path}.${k}`);
  for (const k of ['apiVersion', 'kind']) if (!Object.hasOwn(v, k)) ctx.errs.push(field.required(child(k)));
  const { apiVersion, kind, metadata } = v;
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== 'string') ctx.errs.push(field.invalid(child('apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion === '') ctx.errs.push(field.invalid(child('apiVersion'), apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2) {
      ctx.errs.push(field.invalid(child('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    }
  }
  if (kind !== undefined) {
    if (typeof kind !== 'string') ctx.errs.push(field.invalid(child('kind'), kind, 'must be a string'));
    else if (kind === '') ctx.errs.push(field.invalid(child('kind'), kind, 'must not be empty'));
    else {
      const problems = [...(dns1035.test(kind.toLowerCase()) ? [] : [dns1035Message]), ...(kind.length > 63 ? ['must be no more than 63 characters'] : [])];
      if (problems.length) ctx.errs.push(field.invalid(child('kind'), kind, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
    }
  }
  if (metadata !== undefined && !isObject(metadata)) ctx.errs.push(field.invalid(child('metadata'), metadata, 'must be an object'));
}
