/**
 * The Deployment reconciler (Kubernetes' syncDeployment): claim the ReplicaSets the selector
 * matches, then either refresh status (being deleted), scale (paused, or a replica change
 * mid-rollout) or take one rollout step of the strategy. It waits while the cache has not yet
 * seen its own last writes, so it never computes from a state it knows to be stale.
 */
import { objectKey } from '../../../api/meta.js';
import { Deployments, ReplicaSets } from '../../../api/resource-type.js';
import { clone } from '../../../machinery/deep-equal.js';
import { selectorFromLabelSelector, type LabelSelector } from '../../../machinery/labels.js';
import { TerminalError, type ReconcileContext, type Request, type Result } from '../../../runtime/controller.js';
import { IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import { claimObjects, recheckOwner } from '../../../control/ownership/index.js';
import { isScalingEvent } from './proportional.js';
import { findNewReplicaSet, findOldReplicaSets } from './replica-sets.js';
import { rolloutRecreate, rolloutRolling, syncScaling, syncStatusOnly } from './rollout.js';
import { pausedConditions } from './status.js';
import { DeploymentSync, updateKey, type SyncDeps } from './sync.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

export interface DeploymentReconcilerDeps extends SyncDeps {
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
}

/** How soon to look again when the cache lags behind our own writes (their events usually come first). */
const staleCacheRetryMs = 1000;

export class DeploymentReconciler {
  constructor(private readonly d: DeploymentReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const cached = this.d.deployments.get(req.namespace, req.name);
    if (!cached) {
      this.d.updates.delete(updateKey({ kind: 'Deployment', metadata: { namespace: req.namespace, name: req.name } }));
      return {};
    }
    const deployment = clone(cached);
    const selector = this.selectorOf(deployment);
    if (selector.empty) return this.selectingAll(deployment);
    if (!this.d.updates.isUpdatedSatisfied(updateKey(cached), cached)) return { requeueAfterMs: staleCacheRetryMs };
    const rsList = await this.claimReplicaSets(deployment, selector);
    if (rsList.some((rs) => !this.d.updates.isUpdatedSatisfied(updateKey(rs), rs))) return { requeueAfterMs: staleCacheRetryMs };
    const s = new DeploymentSync(this.d, deployment, rsList, () => ctx.clock.now());
    if (deployment.metadata.deletionTimestamp) return syncStatusOnly(s);
    const conditions = pausedConditions(deployment, ctx.clock.now());
    if (conditions) {
      deployment.status = { ...deployment.status, conditions };
      await s.writeDeployment();
    }
    if (deployment.spec?.paused) return syncScaling(s);
    const newRS = findNewReplicaSet(deployment, rsList);
    if (isScalingEvent(deployment, newRS, findOldReplicaSets(rsList, newRS))) return syncScaling(s);
    return deployment.spec?.strategy?.type === 'Recreate' ? rolloutRecreate(s) : rolloutRolling(s);
  }

  private selectorOf(d: Deployment): LabelSelector {
    try {
      return selectorFromLabelSelector(d.spec?.selector ?? {});
    } catch (e) {
      throw new TerminalError(`invalid selector of Deployment ${objectKey(d)}`, { cause: e });
    }
  }

  /** An empty selector would claim every pod: refuse, record it, and only acknowledge the generation. */
  private async selectingAll(d: Deployment): Promise<Result> {
    this.d.events.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
    if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
      await this.d.client.updateStatus(Deployments, { ...d, status: { ...d.status, observedGeneration: d.metadata.generation } });
    }
    return {};
  }

  private claimReplicaSets(d: Deployment, selector: LabelSelector): Promise<ReplicaSet[]> {
    return claimObjects(this.d.replicaSets.byIndex(IndexNames.namespace, d.metadata.namespace!), {
      client: this.d.client, type: ReplicaSets, owner: d, ownerApiVersion: 'apps/v1', ownerKind: 'Deployment', selector,
      canAdopt: recheckOwner(this.d.client, Deployments, d),
    });
  }
}
