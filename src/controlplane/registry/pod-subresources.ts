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

interface PodShape { spec?: { nodeName?: string }; status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] } }

export async function bindPod(core: RegistryCore, pods: ServedResource, namespace: string, name: string, binding: KObject, ctx: RequestContext): Promise<void> {
  const target = (binding.target as { name?: string; kind?: string } | undefined)?.name;
  if (!target) throw errors.invalid('Binding', name, '', [{ type: 'FieldValueRequired', field: 'target.name' }]);
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'binding', namespace, name, object: binding, ctx });
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, pods, namespace, name);
    const pod = structuredClone(current.object) as KObject & PodShape;
    if (pod.metadata.deletionTimestamp) throw errors.conflict('pods', name, '', 'pod is being deleted, cannot be assigned to a host');
    if (pod.spec?.nodeName) throw errors.conflict('pods/binding', name, '', `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    pod.spec = { ...pod.spec, nodeName: target };
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

interface PdbShape { spec?: { selector?: unknown }; status?: { disruptionsAllowed?: number; desiredHealthy?: number; currentHealthy?: number } }

export async function evictPod(core: RegistryCore, pods: ServedResource, pdbs: ServedResource | undefined, namespace: string, name: string, eviction: KObject, ctx: RequestContext): Promise<void> {
  const current = loadCurrent(core, pods, namespace, name);
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'eviction', namespace, name, object: eviction, oldObject: current.object, ctx });
  const pod = current.object;
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (pdbs && phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp) {
    for (const item of core.store.list(`${pdbs.storagePrefix}/${namespace}/`).items) {
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
  const deleteOptions = (eviction.deleteOptions ?? {}) as DeleteOptions;
  await deleteObject(core, pods, namespace, name, deleteOptions, ctx);
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
