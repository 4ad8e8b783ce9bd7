/**
 * DELETE: preconditions, graceful deletion (pods), finalizers and the propagation policy's
 * `orphan` / `foregroundDeletion` finalizers. Objects without pending work are removed at once.
 */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import { StoreError } from '../storage/store.js';
import type { RegistryCore } from './core.js';
import { storeErrorToStatus, timestamp } from './core.js';
import type { AdmissionAttributes, RequestContext } from './context.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { loadCurrent } from './update.js';

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
  if (admission !== 'none') await admitDelete(core, { operation: 'DELETE', resource: r, namespace, name: admission === 'object' ? name : undefined, oldObject: old, options, ctx });
  const policy = options.propagationPolicy ?? legacyPolicy(options) ?? r.strategy.defaultPropagationPolicy ?? 'Background';
  const finalizers = withPropagationFinalizer(old.metadata.finalizers ?? [], policy, !!old.metadata.deletionTimestamp);
  const grace = gracePeriod(r, old, options);
  const now = core.now();
  const namespaceContent = isNamespace(r) && ((old.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0;
  if (finalizers.length === 0 && grace === 0 && !namespaceContent) {
    if (ctx.dryRun) return old;
    const removed = await core.store.delete(current.key, current.rv);
    return r.convert(removed.object, requested);
  }
  const obj: KObject = { ...old, metadata: { ...old.metadata, finalizers: finalizers.length ? finalizers : undefined } };
  if (!obj.metadata.finalizers) delete obj.metadata.finalizers;
  const m = obj.metadata;
  const deadline = new Date(now.getTime() + grace * 1000);
  if (!m.deletionTimestamp || new Date(m.deletionTimestamp) > deadline) {
    if (!m.deletionTimestamp && r.tracksGeneration) m.generation = (m.generation ?? 0) + 1;
    m.deletionTimestamp = timestamp(deadline);
    m.deletionGracePeriodSeconds = grace;
  }
  if (namespaceContent) obj.status = { ...(obj.status as object), phase: 'Terminating' };
  if (ctx.dryRun) return obj;
  const stored = await core.store.update(current.key, await r.convert(obj, r.storageApiVersion), current.rv);
  return r.convert(stored.object, requested);
}

/** Mutating admission runs too (a webhook may deny); there is no object, so what it returns is ignored. */
async function admitDelete(core: RegistryCore, attrs: AdmissionAttributes): Promise<void> {
  await core.admission.mutate(attrs);
  await core.admission.validate(attrs);
}

function checkPreconditions(r: ServedResource, old: KObject, options: DeleteOptions): void {
  const p = options.preconditions;
  const { plural, group } = r.definition;
  if (p?.uid && p.uid !== old.metadata.uid) {
    throw errors.conflict(plural, old.metadata.name!, group, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${old.metadata.uid}`);
  }
  if (p?.resourceVersion && p.resourceVersion !== old.metadata.resourceVersion) {
    throw errors.conflict(plural, old.metadata.name!, group, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`);
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

/**
 * Only kinds with a graceful delete strategy (pods) wait; others go at once whatever the client
 * asks. A pod not on a node, or finished, goes at once too; a negative period counts as 1s.
 */
function gracePeriod(r: ServedResource, old: KObject, options: DeleteOptions): number {
  const isPod = r.definition.group === '' && r.definition.plural === 'pods';
  if (!isPod && !r.strategy.defaultGracePeriodSeconds) return 0;
  let period = options.gracePeriodSeconds ?? r.strategy.defaultGracePeriodSeconds?.(old) ?? 0;
  if (isPod) {
    const spec = old.spec as { nodeName?: string } | undefined;
    const phase = (old.status as { phase?: string } | undefined)?.phase;
    if (!spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') period = 0;
  }
  return period < 0 ? 1 : period;
}

function isNamespace(r: ServedResource): boolean {
  return r.definition.group === '' && r.definition.plural === 'namespaces';
}
