/**
 * The validation half of a write: unknown-field handling per `fieldValidation`, CRD schema
 * defaulting/pruning/validation, metadata rules and the resource strategy's own checks.
 */
import type { KObject } from '../../api/meta.js';
import { errors, field, type FieldError } from '../../machinery/errors.js';
import { pruneUnknownFields, validateAgainstSchema, applyDefaults } from '../../machinery/schema/index.js';
import { typeMismatch } from './typed-decode.js';
import { validateObjectMeta } from '../../machinery/validation/names.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { RequestContext } from './context.js';
import type { ServedResource } from './served-resource.js';

const labelNamed = new Set(['namespaces', 'services']);
const pathSegmentNamed = new Set(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings', 'apiservices', 'flowschemas', 'prioritylevelconfigurations']);

/**
 * Decodes a body as kube-apiserver would: a built-in kind's values must have their Go types (400
 * otherwise), and fields the schema does not know are dropped, then reported with the body's
 * repeated keys as `fieldValidation` asks: Strict fails with 400, Warn adds warnings, Ignore stays
 * silent.
 */
export function handleUnknownFields(r: ServedResource, obj: KObject, ctx: RequestContext, old?: KObject): void {
  const kind = obj.kind ?? r.definition.kind;
  const version = (obj.apiVersion ?? '').split('/').pop();
  const decoded = old && !r.crdName ? changedPart(obj, old) : obj;
  const mismatch = r.schema && !r.schemaIsAuthoritative ? typeMismatch(r.schema, decoded) : undefined;
  if (mismatch) throw errors.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${mismatch}`);
  const unknown = r.schema ? pruneUnknownFields(r.schema, decoded) : [];
  if (decoded !== obj) for (const key of Object.keys(obj)) if (!Object.hasOwn(decoded, key) && obj[key] !== old![key]) delete obj[key];
  if (ctx.fieldValidation === 'Ignore') return;
  const messages = [...(ctx.duplicateFields ?? []).map((path) => `duplicate field "${path}"`), ...unknown.map((path) => `unknown field "${path}"`)];
  if (messages.length === 0) return;
  if (ctx.fieldValidation === 'Strict') {
    throw errors.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${messages.join(', ')}`);
  }
  ctx.warnings.push(...messages);
}

/**
 * The top-level fields of an update that are not the stored object's own (a /status write keeps
 * the stored spec, a main-resource write its status): a built-in kind's schema never changes, so
 * what was decoded and pruned at its own write needs no second walk (performance.md §20).
 */
function changedPart(obj: KObject, old: KObject): KObject {
  const part: KObject = { metadata: obj.metadata };
  for (const key of Object.keys(obj)) if (obj[key] !== old[key] || key === 'apiVersion' || key === 'kind') part[key] = obj[key];
  return part;
}

/** Schema defaults for custom resources (also applied when reading stored objects). */
export function applySchemaDefaults(r: ServedResource, obj: KObject): void {
  if (r.schema && r.schemaIsAuthoritative) applyDefaults(r.schema, obj);
}

export function validateObject(r: ServedResource, obj: KObject, old: KObject | undefined): void {
  const d = r.definition;
  const errs: FieldError[] = validateObjectMeta(obj.metadata ?? {}, {
    namespaced: d.namespaced,
    nameValidator: labelNamed.has(d.plural) && !d.group ? 'label' : pathSegmentNamed.has(d.plural) ? 'path-segment' : 'subdomain',
  });
  errs.push(...validateOwnerReferences(obj));
  if (r.schema && r.schemaIsAuthoritative) errs.push(...stripMetadataErrors(validateAgainstSchema(r.schema, obj)));
  errs.push(...(r.strategy.validate?.(obj, old) ?? []));
  if (old) {
    errs.push(...validateMetadataUpdate(obj, old));
    errs.push(...(r.strategy.validateUpdate?.(obj, old) ?? []));
  }
  if (errs.length > 0) throw errors.invalid(d.kind, obj.metadata?.name ?? '', d.group, errs);
}

function stripMetadataErrors(errs: FieldError[]): FieldError[] {
  return errs.filter((e) => !e.field.startsWith('metadata.') && e.field !== 'metadata');
}

function validateOwnerReferences(obj: KObject): FieldError[] {
  const refs = obj.metadata?.ownerReferences ?? [];
  const errs: FieldError[] = [];
  refs.forEach((ref, i) => {
    const path = `metadata.ownerReferences[${i}]`;
    if (!ref.apiVersion) errs.push(field.invalid(`${path}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(field.invalid(`${path}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(field.invalid(`${path}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(field.invalid(`${path}.uid`, ref.uid ?? '', 'uid must not be empty'));
  });
  const controllers = refs.filter((ref) => ref.controller);
  if (controllers.length > 1) {
    errs.push(field.invalid('metadata.ownerReferences', refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.map((c) => `${c.kind}/${c.name}`).join(' and ')}`));
  }
  return errs;
}

function validateMetadataUpdate(obj: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const m = obj.metadata;
  const o = old.metadata;
  if (o.deletionTimestamp) {
    const added = (m.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f));
    if (added.length > 0) errs.push(field.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`));
  }
  // Only a mutating webhook can get here with another name or uid: the request's are checked earlier.
  if (m.name !== o.name) errs.push(field.invalid('metadata.name', m.name ?? '', 'field is immutable'));
  if (!deepEqual(m.namespace, o.namespace)) errs.push(field.invalid('metadata.namespace', m.namespace, 'field is immutable'));
  if (m.uid !== o.uid) errs.push(field.invalid('metadata.uid', m.uid ?? '', 'field is immutable'));
  return errs;
}
