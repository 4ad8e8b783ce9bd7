/**
 * The part of an object an update may change, as kube-apiserver's update strategies decide in
 * PrepareForUpdate and BeforeUpdate. It is applied to the request before mutating admission (what
 * webhooks see) and again to the admitted object, because kube runs the strategies after mutating
 * webhooks: a webhook's change outside that part has no effect.
 *
 * - `/status` of a custom resource: only status.
 * - `/status` of a built-in kind: status and metadata, except what its status strategy resets
 *   (pods: ownerReferences, Deployments: labels).
 * - the main resource of a kind with a status subresource: everything but status.
 * - always: generation, timestamps and resourceVersion stay the server's.
 */
import type { KObject, ObjectMeta } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import type { ServedResource } from './served-resource.js';

const statusStrategyResets: Record<string, (keyof ObjectMeta)[]> = {
  '/pods': ['ownerReferences'],
  'apps/deployments': ['labels'],
};

/** The request's object scoped to what the client may change; identity fields come from `old`. */
export function scopeRequest(r: ServedResource, old: KObject, next: KObject, subresource: string | undefined): KObject {
  const obj = scopeBody(r, old, next, subresource);
  const m = obj.metadata;
  const o = old.metadata;
  m.name = o.name;
  m.namespace = o.namespace;
  m.uid = o.uid;
  return finish(obj, old);
}

/**
 * The object mutating admission returned, scoped again. Identity fields a webhook changed are kept,
 * so that validation reports them as kube does (immutable name and uid, namespace mismatch).
 */
export function scopeAdmitted(r: ServedResource, old: KObject, admitted: KObject, subresource: string | undefined): KObject {
  const obj = scopeBody(r, old, admitted, subresource);
  const m = obj.metadata;
  const o = old.metadata;
  m.name ||= o.name;
  m.uid ||= o.uid;
  if (r.definition.namespaced && m.namespace && m.namespace !== o.namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  m.namespace = o.namespace;
  return finish(obj, old);
}

function scopeBody(r: ServedResource, old: KObject, next: KObject, subresource: string | undefined): KObject {
  const nextMeta = typeof next.metadata === 'object' && next.metadata !== null ? next.metadata : {};
  const managedFields = nextMeta.managedFields ?? old.metadata.managedFields;
  if (subresource === 'status') {
    const obj: KObject = { ...old, metadata: { ...(r.crdName ? old.metadata : nextMeta), managedFields } };
    for (const k of statusStrategyResets[`${r.definition.group}/${r.definition.plural}`] ?? []) (obj.metadata as Record<string, unknown>)[k] = old.metadata[k];
    setOrDelete(obj, 'status', next.status);
    return obj;
  }
  const obj: KObject = { ...next, apiVersion: old.apiVersion, kind: old.kind, metadata: { ...nextMeta, managedFields } };
  if (r.definition.subresources?.status) setOrDelete(obj, 'status', old.status);
  return obj;
}

/** BeforeUpdate: requests cannot set generation, timestamps or (here) resourceVersion. */
function finish(obj: KObject, old: KObject): KObject {
  const m = obj.metadata;
  const o = old.metadata;
  m.generation = o.generation;
  m.creationTimestamp = o.creationTimestamp;
  m.deletionTimestamp = o.deletionTimestamp;
  m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  m.resourceVersion = o.resourceVersion;
  for (const k of Object.keys(m) as (keyof ObjectMeta)[]) if (m[k] === undefined) delete m[k];
  return obj;
}

function setOrDelete(obj: KObject, key: string, value: unknown): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}
