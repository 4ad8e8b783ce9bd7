/**
 * pods/eviction: a delete of the pod guarded by the PodDisruptionBudgets that select it. The
 * Eviction is admitted as a CREATE on the subresource; the delete itself is not admitted again, so
 * it is conditioned on the pod version that stood when validation began: a pod that changed while
 * the webhooks judged it (turned Ready, say) is judged again (docs/design/podunavailablebudget.md §12).
 */
import type { KObject } from '../../../api/meta.js';
import { isConflict, isNotFound, StatusError } from '../../../machinery/errors.js';
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

/** As kube's EvictionsRetry: attempts at evicting a pod that keeps changing under the eviction. */
const evictionAttempts = 20;

const isTerminal = (pod: KObject) => ['Succeeded', 'Failed'].includes((pod.status as { phase?: string } | undefined)?.phase ?? '');

/** The stored pod, or undefined: a missing pod is still admitted first and answered 404 after, as kube. */
function podIfAny({ core, resource, namespace, name }: SubresourceTarget): KObject | undefined {
  try {
    return loadCurrent(core, resource, namespace, name).object;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function evictPod(target: SubresourceTarget, body: KObject): Promise<void> {
  const { core, resource: pods, namespace, name, ctx } = target;
  const eviction = await admitSubresourceCreate(target, 'eviction', 'Eviction', body);
  const deleteOptions = (eviction.deleteOptions ?? {}) as DeleteOptions & { dryRun?: string[] };
  // A dry run asked for in the Eviction's deleteOptions (perhaps by a webhook) counts like the request's.
  const deleteCtx = !ctx.dryRun && (deleteOptions.dryRun ?? []).length > 0 ? { ...ctx, dryRun: true } : ctx;
  const callerVersion = deleteOptions.preconditions?.resourceVersion;
  for (let attempt = 1; ; attempt++) {
    const judged = podIfAny(target);
    await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'eviction', namespace, name, object: eviction, ctx });
    const pod = loadCurrent(core, pods, namespace, name).object;
    if (!isTerminal(pod) && !pod.metadata.deletionTimestamp) checkDisruptionBudgets(target, pod);
    // As kube, a resourceVersion the caller set is honoured as given; else a live pod is deleted
    // only at the version the admission began with (terminal or terminating ones need no guard).
    const guard = !!judged && !callerVersion && !isTerminal(judged) && !judged.metadata.deletionTimestamp;
    const options = guard ? { ...deleteOptions, preconditions: { ...deleteOptions.preconditions, resourceVersion: judged.metadata.resourceVersion } } : deleteOptions;
    try {
      // kube deletes an evicted pod through its store, without admitting a DELETE of the pod.
      await deleteObject(core, pods, namespace, name, options, deleteCtx, 'none');
      return;
    } catch (e) {
      if (!guard || !isConflict(e) || attempt >= evictionAttempts) throw e;
    }
  }
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
