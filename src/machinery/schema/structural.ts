/**
 * The structural-schema rules kube-apiserver enforces when a CRD is created or updated (a subset:
 * the ones CRD authors actually trip over). The caller passes the schema's path, e.g.
 * `spec.versions[0].schema.openAPIV3Schema`.
 */
import { field, type FieldError } from '../errors.js';
import type { JSONSchemaProps } from './types.js';

type Level = 'root' | 'field' | 'item';

const emptyTypeDetail: Record<Level, string> = {
  root: 'must not be empty at the root',
  field: 'must not be empty for specified object fields',
  item: 'must not be empty for specified array items',
};

export function checkStructural(schema: JSONSchemaProps, basePath: string): FieldError[] {
  const errs: FieldError[] = [];
  checkNode(schema, basePath, 'root', errs);
  return errs;
}

function checkNode(s: JSONSchemaProps, path: string, level: Level, errs: FieldError[]): void {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(s.type ? field.invalid(`${path}.type`, s.type, detail) : field.required(`${path}.type`, detail));
  } else if (!s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) {
    errs.push(field.required(`${path}.type`, emptyTypeDetail[level]));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(field.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && s.type && s.type !== 'object') errs.push(field.invalid(`${path}.type`, s.type, 'must be object at the root'));
  if (s.properties && s.additionalProperties !== undefined) {
    errs.push(field.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (s.type === 'array' && !s.items) errs.push(field.required(`${path}.items`, 'must be specified'));
  if (s.uniqueItems) {
    errs.push(field.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  checkListType(s, path, errs);
  if ((level === 'root' || embedded) && s.properties && Object.hasOwn(s.properties, 'metadata')) checkMetadata(s.properties.metadata, `${path}.properties[metadata]`, errs);
  checkJunctors(s, path, errs);

  for (const [k, p] of Object.entries(s.properties ?? {})) checkNode(p, `${path}.properties[${k}]`, 'field', errs);
  if (typeof s.additionalProperties === 'object') checkNode(s.additionalProperties, `${path}.additionalProperties`, 'field', errs);
  if (s.items) checkNode(s.items, `${path}.items`, 'item', errs);
}

function checkListType(s: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const type = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (type !== undefined && !['atomic', 'set', 'map'].includes(type)) {
    errs.push(field.notSupported(`${path}.x-kubernetes-list-type`, type, ['atomic', 'set', 'map']));
  }
  if (type === 'map' && !keys?.length) {
    errs.push(field.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  }
  if (type !== 'map' && keys?.length) {
    errs.push(field.forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty if x-kubernetes-list-type is not map'));
  }
}

/** ObjectMeta is implied; a schema may only restrict name and generateName. */
function checkMetadata(meta: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const extra = Object.keys(meta.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
  if (extra.length > 0 || (meta.type !== undefined && meta.type !== 'object')) {
    errs.push(field.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

/** `anyOf: [{type: integer}, {type: string}]`, directly or as allOf[0], is allowed for int-or-string. */
function isIntOrStringPattern(branches: JSONSchemaProps[] | undefined): boolean {
  return branches?.length === 2 && branches[0].type === 'integer' && branches[1].type === 'string';
}

function checkJunctors(s: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  s.anyOf?.forEach((b, i) => checkValueValidation(b, `${path}.anyOf[${i}]`, intOrString && isIntOrStringPattern(s.anyOf), errs));
  s.oneOf?.forEach((b, i) => checkValueValidation(b, `${path}.oneOf[${i}]`, false, errs));
  s.allOf?.forEach((b, i) => {
    const allowInAnyOf = i === 0 && intOrString && isIntOrStringPattern(b.anyOf);
    checkValueValidation(b, `${path}.allOf[${i}]`, false, errs, allowInAnyOf);
  });
  if (s.not) checkValueValidation(s.not, `${path}.not`, false, errs);
}

/** Inside allOf/anyOf/oneOf/not only value validations may appear, never types or defaults. */
function checkValueValidation(s: JSONSchemaProps, path: string, allowType: boolean, errs: FieldError[], allowTypeInAnyOf = false): void {
  if (s.type && !allowType) errs.push(field.forbidden(`${path}.type`, 'must be empty to be structural'));
  if (s.additionalProperties !== undefined) errs.push(field.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (s.default !== undefined) errs.push(field.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (s.nullable) errs.push(field.forbidden(`${path}.nullable`, 'must be false to be structural'));
  for (const [k, p] of Object.entries(s.properties ?? {})) checkValueValidation(p, `${path}.properties[${k}]`, false, errs);
  if (s.items) checkValueValidation(s.items, `${path}.items`, false, errs);
  s.anyOf?.forEach((c, i) => checkValueValidation(c, `${path}.anyOf[${i}]`, allowTypeInAnyOf, errs));
  s.oneOf?.forEach((c, i) => checkValueValidation(c, `${path}.oneOf[${i}]`, false, errs));
  s.allOf?.forEach((c, i) => checkValueValidation(c, `${path}.allOf[${i}]`, false, errs));
  if (s.not) checkValueValidation(s.not, `${path}.not`, false, errs);
}
