/**
 * DELETE: preconditions, graceful deletion (pods), finalizers and the propagation policy's
 * `orphan` / `foregroundDeletion` finalizers. Objects without pending work are removed at once.
 */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import { StoreError } from '../storage/store.js';
import { type RegistryCore, storeErrorToStatus } from './core.js';
import type { AdmissionAttributes, RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { loadCurrent } from './update.js';
import { markForDeletion } from './graceful-delete.js';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

const propagationFinalizers: Record<PropagationPolicy, string | undefined> = { Orphan: 'orphan', Foreground: 'foregroundDeletion', Background: undefined };

/**
 * How a delete is admitted: a DELETE of one object with its name; each item of a DELETE of a
 * collection without one (kube's DeleteCollection admits every item under the request's empty name);
 * the delete an eviction makes not at all (its admission was the eviction's CREATE).
 */
export type DeleteAdmission = 'object' | 'collection-item' | 'none';

export async function deleteObject(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext, admission: DeleteAdmission = 'object'): Promise<KObject> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await deleteOnce(core, r, namespace, name, options, ctx, admission);
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, r, name);
    }
  }
}

async function deleteOnce(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext, admission: DeleteAdmission): Promise<KObject> {
  const current = loadCurrent(core, r, namespace, name);
  const requested = apiVersionOf(r.definition);
  const old = await r.convert(current.object, requested);
  checkPreconditions(r, old, options);
  r.strategy.checkDelete?.(old);
  if (admission !== 'none') await admitDelete(core, { operation: 'DELETE', resource: r, namespace, name: admission === 'object' ? name : undefined, oldObject: old, options, ctx });
  const policy = options.propagationPolicy ?? legacyPolicy(options) ?? r.strategy.defaultPropagationPolicy ?? 'Background';
  const finalizers = withPropagationFinalizer(old.metadata.finalizers ?? [], policy, !!old.metadata.deletionTimestamp);
  const held = r.strategy.heldWhileTerminating?.(old) ?? false;
  const mark = markForDeletion(r, old, finalizers, held, options.gracePeriodSeconds, core.now());
  if (mark.pending) return old;
  const obj = mark.object;
  if (held) r.strategy.markTerminating?.(obj);
  if (ctx.dryRun) return mark.immediate && !mark.changed ? deletedResult(r, obj) : obj;
  let rv = current.rv;
  if (mark.changed) {
    // A graceful kind deleted at grace 0 is first written with its deletion marks, as kube does:
    // watchers see it MODIFIED, then DELETED with the marks.
    const stored = await core.store.update(current.key, await r.convert(obj, r.storageApiVersion), current.rv);
    if (!mark.immediate) return r.convert(stored.object, requested);
    rv = stored.rv;
  }
  const removed = await core.store.delete(current.key, rv);
  return deletedResult(r, await r.convert(removed.object, requested));
}

/**
 * What a removal answers: the object for kinds whose kube storage returns it (pods, services,
 * namespaces, ...: `returnDeletedObject`), else a Success Status naming it (resource plural as the
 * kind, as kube-apiserver does), which clients read to learn the delete is done, not pending.
 */
function deletedResult(r: ServedResource, obj: KObject): KObject {
  if (r.strategy.returnDeletedObject) return obj;
  const { group, plural } = r.definition;
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: obj.metadata.name, group: group || undefined, kind: plural, uid: obj.metadata.uid },
  };
}

/** Mutating admission runs too (a webhook may deny); there is no object, so what it returns is ignored. */
async function admitDelete(core: RegistryCore, attrs: AdmissionAttributes): Promise<void> {
  await core.admission.mutate(attrs);
  await core.admission.validate(attrs);
}

/** As kube's BeforeDelete words it: the Conflict names the kind (not the resource) of the object. */
function checkPreconditions(r: ServedResource, old: KObject, options: DeleteOptions): void {
  const p = options.preconditions;
  const { kind, group } = r.definition;
  if (p?.uid && p.uid !== old.metadata.uid) {
    throw errors.conflict(kind, old.metadata.name!, group, `the UID in the precondition (${p.uid}) does not match the UID in record (${old.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (p?.resourceVersion && p.resourceVersion !== old.metadata.resourceVersion) {
    throw errors.conflict(kind, old.metadata.name!, group, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion}). The object might have been modified`);
  }
}

function legacyPolicy(options: DeleteOptions): PropagationPolicy | undefined {
  if (options.orphanDependents === true) return 'Orphan';
  if (options.orphanDependents === false) return 'Background';
  return undefined;
}

/** The policy's finalizer replaces the other policy's one, as the real server does on a repeated delete. */
function withPropagationFinalizer(existing: string[], policy: PropagationPolicy, alreadyDeleting: boolean): string[] {
  if (alreadyDeleting && !existing.some((f) => f === 'orphan' || f === 'foregroundDeletion') && policy === 'Background') return existing;
  const wanted = propagationFinalizers[policy];
  const others = existing.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  return wanted ? [...others, wanted] : others;
}

