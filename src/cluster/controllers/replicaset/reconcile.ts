/**
 * The ReplicaSet reconciler (Kubernetes' syncReplicaSet): claim the active pods the selector
 * matches, scale when the expectations say the cache is current, then write status computed from
 * scratch. A ReplicaSet being deleted only gets its status refreshed; the garbage collector
 * removes its pods.
 */
import { Pods, ReplicaSets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { retryOnConflict } from '../../../client/retry.js';
import { isNotFound } from '../../../machinery/errors.js';
import { selectorFromLabelSelector } from '../../../machinery/labels.js';
import { TerminalError, type ReconcileContext, type Request, type Result } from '../../../runtime/controller.js';
import { requestKey } from '../../../runtime/handlers.js';
import { IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import { claimObjects, controllerRef, recheckOwner } from '../../../control/ownership/index.js';
import { filterActivePods } from '../../../control/podutil/index.js';
import { manageReplicas, type ManageDeps } from './manage.js';
import { calculateStatus, nextAvailableInMs, statusUnchanged, type ReplicaSetStatus } from './replica-status.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';

export interface ReplicaSetReconcilerDeps extends ManageDeps {
  replicaSets: Informer<ReplicaSet>;
}

export class ReplicaSetReconciler {
  constructor(private readonly d: ReplicaSetReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const rs = this.d.replicaSets.get(req.namespace, req.name);
    if (!rs) {
      this.d.expectations.delete(key);
      return {};
    }
    const needsSync = this.d.expectations.satisfied(key);
    const owned = await this.claimPods(rs);
    let manageError: unknown;
    if (needsSync && !rs.metadata.deletionTimestamp) {
      manageError = await manageReplicas(this.d, key, rs, owned, this.relatedPods(rs, owned), ctx.clock.now());
    }
    const now = ctx.clock.now();
    await this.writeStatus(rs, calculateStatus(rs, owned, manageError, now));
    if (manageError !== undefined) throw manageError;
    if (!needsSync) {
      ctx.log.debug({ pending: this.d.expectations.pendingFor(key) }, 'expectations not yet met');
      return { requeueAfterMs: this.d.expectations.waitMs(key) };
    }
    const wait = nextAvailableInMs(rs, owned, now);
    return wait !== undefined ? { requeueAfterMs: wait } : {};
  }

  private async claimPods(rs: ReplicaSet): Promise<Pod[]> {
    let selector;
    try {
      selector = selectorFromLabelSelector(rs.spec?.selector);
    } catch (e) {
      throw new TerminalError(`invalid selector of ReplicaSet ${rs.metadata.namespace}/${rs.metadata.name}`, { cause: e });
    }
    const candidates = filterActivePods(this.d.pods.byIndex(IndexNames.namespace, rs.metadata.namespace!));
    return claimObjects(candidates, {
      client: this.d.client, type: Pods, owner: rs, ownerApiVersion: 'apps/v1', ownerKind: 'ReplicaSet', selector,
      canAdopt: recheckOwner(this.d.client, ReplicaSets, rs),
    });
  }

  /** Pods of every ReplicaSet sharing this one's controller (a Deployment's): the ranking's "related" pods. */
  private relatedPods(rs: ReplicaSet, owned: Pod[]): Pod[] {
    const owner = controllerRef(rs);
    if (!owner) return owned;
    const siblings = this.d.replicaSets.byIndex(IndexNames.controllerUid, owner.uid);
    const related = siblings.flatMap((s) => this.d.pods.byIndex(IndexNames.controllerUid, s.metadata.uid!));
    return related.length > 0 ? related : owned;
  }

  private async writeStatus(rs: ReplicaSet, status: ReplicaSetStatus): Promise<void> {
    if (statusUnchanged(rs.status, status)) return;
    await writeReplicaSetStatus(this.d.client, rs, status);
  }
}

/** PUT status, re-reading the ReplicaSet when the cached copy was stale; gone is fine. */
async function writeReplicaSetStatus(client: Client, rs: ReplicaSet, status: ReplicaSetStatus): Promise<void> {
  let current: ReplicaSet = rs;
  let first = true;
  try {
    await retryOnConflict(async () => {
      if (!first) current = await client.get<ReplicaSet>(ReplicaSets, rs.metadata.namespace, rs.metadata.name!);
      first = false;
      if (current.metadata.uid !== rs.metadata.uid) return;
      // observedGeneration stays the one this status was computed for: a newer spec is not handled yet.
      await client.updateStatus(ReplicaSets, { ...current, status });
    }, { attempts: 2 });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
