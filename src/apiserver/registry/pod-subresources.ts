/**
 * Pod subresources with their own semantics: `binding` (the scheduler's write of spec.nodeName),
 * `eviction` (a delete guarded by PodDisruptionBudgets) and namespaces' `finalize`.
 */
import type { KObject } from '../../api/meta.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { selectorFromLabelSelector } from '../../machinery/labels.js';
import { StoreError } from '../storage/store.js';
import type { RegistryCore } from './core.js';
import { storeErrorToStatus, timestamp } from './core.js';
import type { RequestContext } from './context.js';
import type { ServedResource } from './served-resource.js';
import { loadCurrent } from './update.js';
import { deleteObject, type DeleteOptions } from './delete.js';
import { collectionPrefix } from './keys.js';

interface PodShape {
  spec?: { nodeName?: string; schedulingGates?: unknown[] };
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

/**
 * Mutating admission of a CREATE on a pod subresource (kube admits the Binding or Eviction, with no
 * old object), then the check every subresource REST does: the body names the pod of the URL.
 */
async function admitSubresourceCreate(core: RegistryCore, pods: ServedResource, subresource: string, kind: string, namespace: string, name: string, body: KObject, ctx: RequestContext): Promise<KObject> {
  const admitted = (await core.admission.mutate({ operation: 'CREATE', resource: pods, subresource, namespace, name, object: body, ctx })) ?? body;
  if (admitted.metadata?.name !== name) throw errors.badRequest(`name in URL does not match name in ${kind} object`);
  return admitted;
}

export async function bindPod(core: RegistryCore, pods: ServedResource, namespace: string, name: string, body: KObject, ctx: RequestContext): Promise<void> {
  const binding = await admitSubresourceCreate(core, pods, 'binding', 'Binding', namespace, name, body, ctx);
  const target = (binding.target as { name?: string; kind?: string } | undefined)?.name;
  if (!target) throw errors.invalid('Binding', name, '', [{ type: 'FieldValueRequired', field: 'target.name' }]);
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'binding', namespace, name, object: binding, ctx });
  const { uid, resourceVersion, annotations } = binding.metadata;
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, pods, namespace, name);
    const pod = structuredClone(current.object) as KObject & PodShape;
    checkBindingPreconditions(pod, uid, resourceVersion);
    const refuse = (why: string) => errors.conflict('pods/binding', name, '', why);
    if (pod.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec?.nodeName) throw refuse(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    if ((pod.spec?.schedulingGates ?? []).length > 0) throw refuse(`pod ${name} has non-empty .spec.schedulingGates`);
    pod.spec = { ...pod.spec, nodeName: target };
    // The binding's annotations are copied onto the pod, so a webhook may annotate through it.
    if (annotations && Object.keys(annotations).length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: timestamp(core.now()) });
    pod.status = { ...pod.status, conditions };
    if (ctx.dryRun) return;
    try {
      await core.store.update(current.key, pod, current.rv);
      return;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, pods, name);
    }
  }
}

/** The binding's uid and resourceVersion are preconditions on the pod, failing as kube's storage reports it. */
function checkBindingPreconditions(pod: KObject, uid: string | undefined, resourceVersion: string | undefined): void {
  const m = pod.metadata;
  const failed = (why: string) => errors.conflict('pods', m.name!, '',
    `StorageError: invalid object, Code: 4, Key: /registry/pods/${m.namespace}/${m.name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${why}`);
  if (uid && uid !== m.uid) throw failed(`UID in precondition: ${uid}, UID in object meta: ${m.uid}`);
  if (resourceVersion && resourceVersion !== m.resourceVersion) throw failed(`ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion}`);
}

interface PdbShape { spec?: { selector?: unknown }; status?: { disruptionsAllowed?: number; desiredHealthy?: number; currentHealthy?: number } }

export async function evictPod(core: RegistryCore, pods: ServedResource, pdbs: ServedResource | undefined, namespace: string, name: string, body: KObject, ctx: RequestContext): Promise<void> {
  const eviction = await admitSubresourceCreate(core, pods, 'eviction', 'Eviction', namespace, name, body, ctx);
  const deleteOptions = (eviction.deleteOptions ?? {}) as DeleteOptions & { dryRun?: string[] };
  // A dry run asked for in the Eviction's deleteOptions (perhaps by a webhook) counts like the request's.
  const deleteCtx = !ctx.dryRun && (deleteOptions.dryRun ?? []).length > 0 ? { ...ctx, dryRun: true } : ctx;
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'eviction', namespace, name, object: eviction, ctx });
  const pod = loadCurrent(core, pods, namespace, name).object;
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (pdbs && phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp) {
    for (const item of core.store.list(collectionPrefix(pdbs, namespace)).items) {
      const pdb = item.object as KObject & PdbShape;
      if (!selectorFromLabelSelector(pdb.spec?.selector as never).matches(pod.metadata.labels)) continue;
      if ((pdb.status?.disruptionsAllowed ?? 0) < 1) {
        throw new StatusError(429, 'TooManyRequests', 'Cannot evict pod as it would violate the pod\'s disruption budget.', {
          retryAfterSeconds: 10,
          causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${pdb.metadata.name} needs ${pdb.status?.desiredHealthy ?? 0} healthy pods and has ${pdb.status?.currentHealthy ?? 0} currently` }],
        }, { 'Retry-After': '10' });
      }
    }
  }
  // kube deletes an evicted pod through its store, without admitting a DELETE of the pod.
  await deleteObject(core, pods, namespace, name, deleteOptions, deleteCtx, 'none');
}

/** PUT namespaces/<n>/finalize: only spec.finalizers changes; an emptied, terminating namespace goes away. */
export async function finalizeNamespace(core: RegistryCore, namespaces: ServedResource, name: string, body: KObject): Promise<KObject> {
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, namespaces, undefined, name);
    const ns = structuredClone(current.object);
    const finalizers = ((body.spec as { finalizers?: string[] } | undefined)?.finalizers) ?? [];
    ns.spec = { ...(ns.spec as object), finalizers };
    try {
      const updated = await core.store.update(current.key, ns, current.rv);
      if (finalizers.length === 0 && ns.metadata.deletionTimestamp && (ns.metadata.finalizers ?? []).length === 0) {
        return (await core.store.delete(current.key, updated.rv)).object;
      }
      return updated.object;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, namespaces, name);
    }
  }
}
