/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition checks outside the schema itself (structural
 * schema rules belong to the schema machinery): names, group, scope, versions, conversion, storedVersions.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { immutable, isDNS1035Label, oneOf } from '../../../machinery/validation/checks.js';
import { validateClientConfig } from './webhook-validation.js';
import { child, items, str, strings, type Json } from '../../../machinery/json.js';

function validateNames(names: Json | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['plural', 'singular', 'kind', 'listKind']) if (!str(names, key)) errs.push(field.required(`${path}.${key}`));
  for (const key of ['plural', 'singular']) {
    const v = str(names, key);
    const msgs = v ? isDNS1035Label(v) : [];
    if (msgs.length) errs.push(field.invalid(`${path}.${key}`, v, msgs.join(',')));
  }
  for (const key of ['kind', 'listKind']) {
    const v = str(names, key);
    const msgs = v ? isDNS1035Label(v.toLowerCase()) : [];
    if (msgs.length) errs.push(field.invalid(`${path}.${key}`, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  if (str(names, 'kind') && str(names, 'kind') === str(names, 'listKind')) {
    errs.push(field.invalid(`${path}.listKind`, str(names, 'listKind'), 'kind and listKind may not be the same'));
  }
  strings(names, 'shortNames').forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length) errs.push(field.invalid(`${path}.shortNames[${i}]`, s, msgs.join(',')));
  });
  return errs;
}

function validateVersions(versions: Json[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const name = str(v, 'name');
    if (seen.has(name)) unique = false;
    seen.add(name);
    const msgs = isDNS1035Label(name);
    if (msgs.length) errs.push(field.invalid(`spec.versions[${i}].name`, name, msgs.join(',')));
    if (!child(child(v, 'schema'), 'openAPIV3Schema')) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
  });
  if (!unique) errs.push(field.invalid('spec.versions', versions, 'must contain unique version names'));
  if (versions.filter((v) => v.storage === true).length !== 1) {
    errs.push(field.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  }
  return errs;
}

function validateConversion(conversion: Json | undefined): FieldError[] {
  const path = 'spec.conversion';
  if (!conversion) return [];
  const errs = oneOf(`${path}.strategy`, conversion.strategy, ['None', 'Webhook']);
  const webhook = child(conversion, 'webhook');
  if (conversion.strategy === 'Webhook') {
    if (!child(webhook, 'clientConfig')) errs.push(field.required(`${path}.webhook.clientConfig`, 'required when strategy is set to Webhook'));
    else errs.push(...validateClientConfig(child(webhook, 'clientConfig'), `${path}.webhook.clientConfig`));
    if (strings(webhook, 'conversionReviewVersions').length === 0) {
      errs.push(field.required(`${path}.webhook.conversionReviewVersions`, 'must specify one of v1, v1beta1'));
    }
  } else if (webhook) {
    errs.push(field.forbidden(`${path}.webhook`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

function validateStoredVersions(crd: KObject, versions: Json[]): FieldError[] {
  const stored = strings(child(crd, 'status'), 'storedVersions');
  if (stored.length === 0) return [];
  const names = versions.map((v) => str(v, 'name'));
  const errs: FieldError[] = [];
  stored.forEach((s, i) => { if (!names.includes(s)) errs.push(field.invalid(`status.storedVersions[${i}]`, s, 'must appear in spec.versions')); });
  const storage = versions.find((v) => v.storage === true);
  if (storage && !stored.includes(str(storage, 'name'))) {
    errs.push(field.invalid('status.storedVersions', stored, `must have the storage version ${str(storage, 'name')}`));
  }
  return errs;
}

export function validateCRD(crd: KObject): FieldError[] {
  const spec = child(crd, 'spec') ?? {};
  const names = child(spec, 'names');
  const group = str(spec, 'group');
  const errs: FieldError[] = [];
  if (crd.metadata.name !== `${str(names, 'plural')}.${group}`) {
    errs.push(field.invalid('metadata.name', crd.metadata.name ?? '', 'must be spec.names.plural+"."+spec.group'));
  }
  if (!group) errs.push(field.required('spec.group'));
  else if (isDNS1123Subdomain(group).length > 0) errs.push(field.invalid('spec.group', group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(field.invalid('spec.group', group, 'should be a domain with at least one dot'));
  errs.push(...oneOf('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const versions = items(spec, 'versions');
  errs.push(...validateVersions(versions));
  errs.push(...validateNames(names, 'spec.names'));
  if (spec.preserveUnknownFields === true) {
    errs.push(field.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  errs.push(...validateConversion(child(spec, 'conversion')));
  errs.push(...validateStoredVersions(crd, versions));
  return errs;
}

const established = (crd: KObject) => items(child(crd, 'status'), 'conditions').some((c) => c.type === 'Established' && c.status === 'True');

export function validateCRDUpdate(crd: KObject, old: KObject): FieldError[] {
  const spec = child(crd, 'spec') ?? {};
  const oldSpec = child(old, 'spec') ?? {};
  const errs = [
    ...immutable('spec.group', spec.group, oldSpec.group),
    ...immutable('spec.names.plural', child(spec, 'names')?.plural, child(oldSpec, 'names')?.plural),
  ];
  if (established(old)) {
    errs.push(...immutable('spec.scope', spec.scope, oldSpec.scope));
    errs.push(...immutable('spec.names.kind', child(spec, 'names')?.kind, child(oldSpec, 'names')?.kind));
  }
  return errs;
}

