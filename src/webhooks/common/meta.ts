/**
 * Object metadata checks the workload webhooks run before their spec checks: ValidateObjectMeta
 * (namespaced, DNS-1123 subdomain names) and the immutable parts of ValidateObjectMetaUpdate.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import { immutable } from '../../machinery/validation/checks.js';
import { validateObjectMeta } from '../../machinery/validation/names.js';

export function validateWorkloadMeta(obj: KObject): FieldError[] {
  return validateObjectMeta(obj.metadata, { namespaced: true, nameValidator: 'subdomain' });
}

export function validateMetaUpdate(obj: KObject, old: KObject): FieldError[] {
  const next = obj.metadata ?? {};
  const prev = old.metadata ?? {};
  return [
    ...immutable('metadata.name', next.name, prev.name),
    ...immutable('metadata.namespace', next.namespace, prev.namespace),
    ...(prev.uid ? immutable('metadata.uid', next.uid, prev.uid) : []),
    ...(prev.creationTimestamp ? immutable('metadata.creationTimestamp', next.creationTimestamp, prev.creationTimestamp) : []),
  ];
}
