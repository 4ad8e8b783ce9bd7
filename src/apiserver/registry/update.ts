/**
 * PUT and the shared update path used by PATCH and subresources: scope the write (write-scope.ts),
 * admit, bump generation on spec changes, validate, then compare-and-swap.
 */
import { clone } from '../../machinery/deep-equal.js';
import { checkClaimResize } from './claim-admission.js';
import type { KObject } from '../../api/meta.js';
import { errors, type FieldError } from '../../machinery/errors.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { semanticEqual } from '../../machinery/semantic-equal.js';
import { StoreError, type StoredObject } from '../storage/store.js';
import { type RegistryCore, storeErrorToStatus } from './core.js';
import type { RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { objectKey } from './keys.js';
import { checkBodyMatches } from './create.js';
import { applySchemaDefaults, handleUnknownFields, validateObject } from './validate.js';
import { trackUpdate } from './managed.js';
import { scopeAdmitted, scopeRequest } from './write-scope.js';

export interface UpdateOptions {
  subresource?: string;
  /** managedFields already computed (server-side apply). */
  managedFieldsSet?: boolean;
  /** The subresource's own update strategy, when it has one. */
  strategy?: SubresourceUpdateStrategy;
}

/**
 * What a subresource other than status may change, as kube registers a strategy per subresource
 * storage (podEphemeralContainersStrategy): the object to keep from the request and the current
 * one (applied before and after mutating admission), and its own validation on top of the kind's.
 */
export interface SubresourceUpdateStrategy {
  prepare(requested: KObject, old: KObject): KObject;
  validate(obj: KObject, old: KObject): FieldError[];
}

export function loadCurrent(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string): StoredObject {
  const current = core.store.get(objectKey(r, namespace, name));
  if (!current) throw errors.notFound(r.definition.plural, name, r.definition.group);
  return current;
}

export async function updateObject(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, body: KObject, ctx: RequestContext, options: UpdateOptions = {}): Promise<KObject> {
  checkBodyMatches(r, body, namespace, name);
  const precondition = body.metadata.resourceVersion;
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, r, namespace, name);
    try {
      // the write consumes its object: a copy only when a lost race may need the body again
      return await writeUpdate(core, r, current, precondition ? body : clone(body), ctx, options);
    } catch (e) {
      if (precondition || !(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, r, name);
    }
  }
}

/** Everything of an update after the new object is known. Throws StoreError('Conflict') on a lost race. */
export async function writeUpdate(core: RegistryCore, r: ServedResource, current: StoredObject, next: KObject, ctx: RequestContext, options: UpdateOptions): Promise<KObject> {
  const d = r.definition;
  const requested = apiVersionOf(d);
  const old = await r.convert(current.object, requested);
  const rv = next.metadata?.resourceVersion;
  if (rv && rv !== old.metadata.resourceVersion) throw errors.conflict(d.plural, old.metadata.name!, d.group);
  const uid = next.metadata?.uid;
  if (uid && uid !== old.metadata.uid) {
    throw errors.conflict(d.plural, old.metadata.name!, d.group, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid}`);
  }
  const prepare = (o: KObject) => (options.strategy ? options.strategy.prepare(o, old) : o);
  let obj = prepare(scopeRequest(r, old, next, options.subresource));
  handleUnknownFields(r, obj, ctx, old);
  r.strategy.default?.(obj);
  applySchemaDefaults(r, obj);
  r.strategy.admissionDefaults?.(obj);
  // As in kube-apiserver, mutating admission sees the object before the strategy prepares it, so a
  // webhook that restores what a patch removed (defaults) does not bump the generation; what the
  // strategy resets (spec on /status, status on the main resource) a webhook cannot change either.
  const admitted = await core.admission.mutate({ operation: 'UPDATE', resource: r, subresource: options.subresource, namespace: old.metadata.namespace, name: old.metadata.name, object: obj, oldObject: old, ctx });
  obj = prepare(scopeAdmitted(r, old, admitted ?? obj, options.subresource));
  r.strategy.prepareForUpdate?.(obj, old);
  if (r.tracksGeneration && options.subresource !== 'status' && specChanged(r, old, obj)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  validateObject(r, obj, old);
  const subresourceErrors = options.strategy?.validate(obj, old) ?? [];
  if (subresourceErrors.length > 0) throw errors.invalid(d.kind, obj.metadata.name ?? '', d.group, subresourceErrors);
  checkClaimResize(core, r, obj, old, options.subresource);
  await core.admission.validate({ operation: 'UPDATE', resource: r, subresource: options.subresource, namespace: old.metadata.namespace, name: old.metadata.name, object: obj, oldObject: old, ctx });
  if (!options.managedFieldsSet) trackUpdate(r, old, obj, ctx, core.now(), options.subresource);
  if (ctx.dryRun) return obj;
  const key = current.key;
  // Only an object whose grace period is over goes away once its last finalizer is removed; a pod
  // still in its grace period stays until the kubelet deletes it with gracePeriodSeconds=0.
  const finalized = obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0
    && (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0 && !r.strategy.heldWhileTerminating?.(obj);
  const stored = await r.convert(obj, r.storageApiVersion);
  if (finalized) {
    // Like kube-apiserver, the write that empties the finalizers deletes in place: one DELETED event.
    const removed = await core.store.delete(key, current.rv);
    return r.convert({ ...stored, metadata: { ...stored.metadata, resourceVersion: removed.object.metadata.resourceVersion } }, requested);
  }
  const result = await core.store.update(key, stored, current.rv);
  return r.convert(result.object, requested);
}

function specChanged(r: ServedResource, old: KObject, obj: KObject): boolean {
  const strip = (o: KObject) => {
    const { metadata: _m, status, ...rest } = o;
    return r.definition.subresources?.status ? rest : { ...rest, status };
  };
  if (obj.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) return true;
  if (r.strategy.annotationsBumpGeneration && !deepEqual(old.metadata.annotations, obj.metadata.annotations)) return true;
  return !semanticEqual(strip(old), strip(obj));
}

