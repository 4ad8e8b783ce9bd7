/**
 * pods/eviction: a delete of the pod guarded by the PodDisruptionBudgets that select it. The
 * Eviction is admitted as a CREATE on the subresource; the delete itself is not admitted again.
 */
import type { KObject } from '../../../api/meta.js';
import { StatusError } from '../../../machinery/errors.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import { deleteObject, type DeleteOptions } from '../delete.js';
import { collectionPrefix } from '../keys.js';
import { admitSubresourceCreate, createdStatus, type SubresourceStorage, type SubresourceTarget } from '../subresource.js';
import { loadCurrent } from '../update.js';

interface PdbShape { spec?: { selector?: unknown }; status?: { disruptionsAllowed?: number; desiredHealthy?: number; currentHealthy?: number } }

export const podEvictionSubresource: SubresourceStorage = {
  async create(target, body) {
    await evictPod(target, body);
    return createdStatus();
  },
};

async function evictPod(target: SubresourceTarget, body: KObject): Promise<void> {
  const { core, resource: pods, namespace, name, ctx } = target;
  const eviction = await admitSubresourceCreate(target, 'eviction', 'Eviction', body);
  const deleteOptions = (eviction.deleteOptions ?? {}) as DeleteOptions & { dryRun?: string[] };
  // A dry run asked for in the Eviction's deleteOptions (perhaps by a webhook) counts like the request's.
  const deleteCtx = !ctx.dryRun && (deleteOptions.dryRun ?? []).length > 0 ? { ...ctx, dryRun: true } : ctx;
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'eviction', namespace, name, object: eviction, ctx });
  const pod = loadCurrent(core, pods, namespace, name).object;
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp) checkDisruptionBudgets(target, pod);
  // kube deletes an evicted pod through its store, without admitting a DELETE of the pod.
  await deleteObject(core, pods, namespace, name, deleteOptions, deleteCtx, 'none');
}

/** 429 TooManyRequests when a budget selecting the pod allows no disruption now. */
function checkDisruptionBudgets({ core, namespace }: SubresourceTarget, pod: KObject): void {
  const pdbs = core.table.lookup('policy', 'v1', 'poddisruptionbudgets');
  if (!pdbs) return;
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
