/**
 * The DaemonSet controller (apps/v1), like upstream's syncDaemonSet: claim pods, settle the current
 * revision (its hash labels updated pods), then, once the expectations are met, create and delete
 * pods so every eligible node runs one; when that is already so, take the RollingUpdate step. Status
 * is recomputed each sync and history pruned.
 */
import { syncTemplateHistory, trimTemplateHistory, type TemplateHistory } from '../../../control/revision/index.js';
import type { KObject } from '../../../api/meta.js';
import { DaemonSets, Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { selectorFromLabelSelector, type LabelSelector } from '../../../machinery/labels.js';
import { targetNodeName } from '../../../machinery/scheduling/index.js';
import { TerminalError, type ReconcileContext, type Request, type Result } from '../../../runtime/controller.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../../runtime/expectations.js';
import { requestKey } from '../../../runtime/handlers.js';
import { IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import { claimObjects, recheckOwner } from '../../../control/ownership/index.js';
import { nodesWithPods, planManage, type NodePods } from './manage-plan.js';
import type { DaemonPodControl } from './pod-control.js';
import { planRollingUpdate, updateBudget } from './rolling-update.js';
import { computeStatus, nextAvailableMs } from './status.js';
import type { Node, Pod, ControllerRevision, DaemonSet } from '../../../api/core/index.js';

export interface DaemonSetReconcilerOptions {
  client: Client;
  daemonSets: Informer<DaemonSet>;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  revisions: Informer<ControllerRevision>;
  control: DaemonPodControl;
  expectations: ScaleExpectations;
  statusWrites: ResourceVersionExpectations;
  events: EventRecorder;
}

const daemonSetOwner = { ownerApiVersion: 'apps/v1', ownerKind: 'DaemonSet' };

export class DaemonSetReconciler {
  constructor(private readonly o: DaemonSetReconcilerOptions) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const ds = this.o.daemonSets.get(req.namespace, req.name);
    if (!ds) {
      this.o.expectations.delete(key);
      this.o.statusWrites.delete(key);
      return {};
    }
    if (!this.o.statusWrites.isUpdatedSatisfied(key, ds)) return { requeueAfterMs: 1000 };
    const pods = await this.claimPods(ds, parseSelector(ds));
    const history = await syncTemplateHistory(this.o.client, ds, this.o.revisions.byIndex(IndexNames.controllerUid, ds.metadata.uid!), daemonSetOwner);
    const { nodes: views, orphaned } = nodesWithPods(ds, this.o.nodes.list(), pods);
    const now = ctx.clock.now();
    const synced = this.o.expectations.satisfied(key);
    if (synced && !ds.metadata.deletionTimestamp) {
      await this.sync(key, ds, views, orphaned, history, now);
      await trimTemplateHistory(this.o.client, history, pods, ds.spec.revisionHistoryLimit ?? 10);
    }
    const status = computeStatus(ds, views, history.hash, history.collisionCount, now);
    if (!deepEqual(status, ds.status ?? {})) {
      const written = await this.o.client.updateStatus<KObject>(DaemonSets, { ...ds, status });
      this.o.statusWrites.expectUpdated(key, written);
    }
    if (!synced) return { requeueAfterMs: this.o.expectations.waitMs(key) };
    const wait = nextAvailableMs(ds, views, now);
    return wait === undefined ? {} : { requeueAfterMs: wait };
  }

  /** One pod per eligible node first; only when that holds, the rolling update's step. */
  private async sync(key: string, ds: DaemonSet, views: NodePods[], orphaned: Pod[], history: TemplateHistory, now: number): Promise<void> {
    const rolling = (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const surge = rolling && updateBudget(ds, views.filter((v) => v.placement.shouldRun).length).maxSurge > 0;
    let plan = planManage(ds, views, orphaned, history.hash, surge);
    for (const pod of plan.failed) {
      this.o.events.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${targetNodeName(pod.spec)}, will try to kill it`);
    }
    if (plan.createOn.length === 0 && plan.delete.length === 0 && rolling) {
      const step = planRollingUpdate(ds, views, history.hash, now);
      plan = { createOn: step.createOn, delete: step.delete, failed: [] };
    }
    await this.o.control.delete(key, ds, plan.delete);
    await this.o.control.create(key, ds, plan.createOn, history.hash);
  }

  private async claimPods(ds: DaemonSet, selector: LabelSelector): Promise<Pod[]> {
    const candidates = this.o.pods.byIndex(IndexNames.namespace, ds.metadata.namespace!);
    return claimObjects(candidates, {
      client: this.o.client, type: Pods, owner: ds, ownerApiVersion: 'apps/v1', ownerKind: 'DaemonSet', selector,
      canAdopt: recheckOwner(this.o.client, DaemonSets, ds),
    });
  }
}

function parseSelector(ds: DaemonSet): LabelSelector {
  try {
    const selector = selectorFromLabelSelector(ds.spec?.selector);
    if (selector.empty) throw new Error('empty selector');
    return selector;
  } catch (e) {
    throw new TerminalError(`invalid selector of DaemonSet ${ds.metadata.namespace}/${ds.metadata.name}`, { cause: e });
  }
}
