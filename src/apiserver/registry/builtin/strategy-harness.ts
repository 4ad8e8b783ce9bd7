/**
 * Runs a built-in strategy the way the generic registry does (status dropped or carried over,
 * default, prepare, validate), without storage. Used by this folder's tests; also handy to check
 * a fixture against the catalogue.
 */
import type { KObject } from '../../../api/meta.js';
import { fieldErrorMessage } from '../../../machinery/errors.js';
import { clone } from '../../../machinery/deep-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtinResources, type BuiltinOptions } from './index.js';

export interface Simulated {
  object: KObject;
  /** Field errors as `field.Error.Error()` prints them. */
  errors: string[];
}

export function findBuiltin(group: string, plural: string, options?: BuiltinOptions): BuiltinResource {
  const r = builtinResources(options).find((b) => b.definition.group === group && b.definition.plural === plural);
  if (!r) throw new Error(`no built-in ${plural}.${group}`);
  return r;
}

export function simulateCreate(r: BuiltinResource, input: KObject): Simulated {
  const obj = clone(input);
  obj.metadata = { uid: 'uid-1', creationTimestamp: '2025-01-01T00:00:00Z', ...obj.metadata };
  if (r.definition.namespaced) obj.metadata.namespace ??= 'default';
  if (r.definition.subresources?.status) delete obj.status;
  r.strategy.default?.(obj);
  r.strategy.admissionDefaults?.(obj);
  r.strategy.prepareForCreate?.(obj);
  return { object: obj, errors: (r.strategy.validate?.(obj) ?? []).map(fieldErrorMessage) };
}

export function simulateUpdate(r: BuiltinResource, old: KObject, input: KObject): Simulated {
  const obj = clone(input);
  const m = old.metadata;
  obj.metadata = { ...obj.metadata, name: m.name, namespace: m.namespace, uid: m.uid, creationTimestamp: m.creationTimestamp };
  if (r.definition.subresources?.status) {
    if (old.status === undefined) delete obj.status;
    else obj.status = clone(old.status);
  }
  r.strategy.default?.(obj);
  r.strategy.admissionDefaults?.(obj);
  r.strategy.prepareForUpdate?.(obj, old);
  const errs = [...(r.strategy.validate?.(obj) ?? []), ...(r.strategy.validateUpdate?.(obj, old) ?? [])];
  return { object: obj, errors: errs.map(fieldErrorMessage) };
}
