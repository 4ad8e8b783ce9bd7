/**
 * The Advanced DaemonSet reconciler (docs/design/advanced-daemonset.md §5, upstream syncDaemonSet): claim pods, settle
 * the revision history, and while create/delete and pod-write expectations are unmet only refresh
 * status. Otherwise: manage (one pod per eligible node; a pass that wrote pods ends there), refresh
 * in-place states, run the RollingUpdate step unless paused or OnDelete, trim history and write
 * status with observedGeneration. Every pass starts from the newest copy of the DaemonSet (its
 * last status write while the cache lags) and writes status at most once, only when it changed.
 */
import { objectKey } from '../../api/meta.js';
import { syncTemplateHistory, trimTemplateHistory, type TemplateHistory } from '../../control/revision/index.js';
import type { Client } from '../../client/client.js';
import { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { selectorFromLabelSelector, type LabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import { requestKey, type Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { TerminalError, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { isOnDelete, isPaused } from './budget.js';
import { claimPods } from './claim.js';
import type { FailedPodBackoff } from './failed-backoff.js';
import { planManage } from './manage-plan.js';
import { buildClusterView, type ClusterView } from './node-view.js';
import { NewestCopies } from '../../runtime/newest-copies.js';
import type { PassContext } from './pass.js';
import { syncNodes } from './pod-control.js';
import { refreshUpdateStates } from './refresh.js';
import { rollingUpdate } from './rollout.js';
import { computeStatus, nextAvailableMs, statusChanged } from './status.js';
import { AdvancedDaemonSets, type DaemonSet } from './types.js';
import type { ControllerRevision, Node, Pod } from '../../api/core/index.js';

export interface DaemonSetReconcilerDeps {
  client: Client;
  daemonSets: Informer<DaemonSet>;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  revisions: Informer<ControllerRevision>;
  expectations: ScaleExpectations;
  podUpdates: ResourceVersionExpectations;
  events: EventRecorder;
  backoff: FailedPodBackoff;
  /** Gate InPlaceUpdateEnvFromMetadata (docs/design/container-meta.md §4). */
  envFromMetadata?: boolean;
}

const minOf = (...xs: (number | undefined)[]) => xs.reduce<number | undefined>((m, x) => (x === undefined ? m : m === undefined ? x : Math.min(m, x)), undefined);

/** After a status write lost a race: the DaemonSet's own event normally brings the pass back first. */
const statusConflictRequeueMs = 1_000;

/** Revisions are owned by the v1beta1 DaemonSet (the storage version). */
const advancedDaemonSetOwner = { ownerApiVersion: 'apps.kruise.io/v1beta1', ownerKind: 'DaemonSet' };

export class AdvancedDaemonSetReconciler {
  /** DaemonSets as this controller's status writes returned them, until the cache catches up. */
  private readonly written = new NewestCopies<DaemonSet>();

  constructor(private readonly d: DaemonSetReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const cached = this.d.daemonSets.get(req.namespace, req.name);
    if (!cached) {
      this.d.expectations.delete(key);
      this.written.forget(req.namespace, req.name);
      return {};
    }
    // status (partition, burstReplicas and observedGeneration read it) as last written
    const ds = this.written.newest(cached);
    if (ds.metadata.deletionTimestamp) return {};
    const selector = parseSelector(ds);
    if (selector.empty) {
      this.d.events.event(ds, 'Warning', 'SelectingAll', 'This DaemonSet is selecting all pods. A non-empty selector is required.');
      return {};
    }
    const history = await syncTemplateHistory(this.d.client, ds, this.d.revisions.byIndex(IndexNames.controllerUid, ds.metadata.uid!), advancedDaemonSetOwner);
    const pods = await claimPods(this.d.client, ds, selector, this.d.pods.byIndex(IndexNames.namespace, ds.metadata.namespace!));
    const view = buildClusterView(ds, this.d.nodes.list(), pods);
    const c: PassContext = {
      client: this.d.client, events: this.d.events, expectations: this.d.expectations, podUpdates: this.d.podUpdates,
      pods: this.d.pods, key, ds, now: ctx.clock.now(),
    };
    const waiting = this.waitMs(key, pods);
    if (waiting !== undefined) {
      return { requeueAfterMs: minOf(waiting, await this.updateStatus(c, view, history, false)) };
    }
    const requeueAfterMs = minOf(await this.sync(c, view, history, pods), nextAvailableMs(ds, view, c.now));
    return requeueAfterMs === undefined ? {} : { requeueAfterMs };
  }

  /** Undefined when the cache shows every create, delete and pod write of earlier passes. */
  private waitMs(key: string, pods: readonly Pod[]): number | undefined {
    if (!this.d.expectations.satisfied(key)) return Math.min(Math.max(this.d.expectations.waitMs(key), 1), 5_000);
    return pods.every((p) => this.d.podUpdates.isUpdatedSatisfied(objectKey(p), p)) ? undefined : 1_000;
  }

  private async sync(c: PassContext, view: ClusterView, history: TemplateHistory, pods: Pod[]): Promise<number | undefined> {
    const manage = planManage(c.ds, view, history.hash, c.now, this.d.backoff);
    for (const { pod, node } of manage.failed) {
      c.events.event(c.ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${node}, will try to kill it`);
    }
    const wrote = await syncNodes(c, manage.delete, manage.createOn, history.hash);
    if (wrote > 0 || this.waitMs(c.key, pods) !== undefined) {
      return minOf(manage.requeueAfterMs, await this.updateStatus(c, view, history, false));
    }
    const updater = new InPlaceUpdater(this.d.client, { now: () => new Date(c.now), gated: { envFromMetadata: this.d.envFromMetadata } });
    const refreshed = await refreshUpdateStates(c, updater, pods);
    if (!isPaused(c.ds) && !isOnDelete(c.ds)) await rollingUpdate(c, view, history, updater);
    await trimTemplateHistory(this.d.client, history, pods, c.ds.spec.revisionHistoryLimit ?? 10);
    return minOf(manage.requeueAfterMs, refreshed, await this.updateStatus(c, view, history, true));
  }

  /** Writes the status when it changed; returns a requeue delay when the write lost a race. */
  private async updateStatus(c: PassContext, view: ClusterView, history: TemplateHistory, fullPass: boolean): Promise<number | undefined> {
    const status = computeStatus(c.ds, view, { hash: history.hash, collisionCount: history.collisionCount, now: c.now, fullPass });
    return (await this.written.writeStatus(c.client, AdvancedDaemonSets, c.ds, status, statusChanged)) ? undefined : statusConflictRequeueMs;
  }
}

function parseSelector(ds: DaemonSet): LabelSelector {
  try {
    return selectorFromLabelSelector(ds.spec.selector as MetaLabelSelector);
  } catch (e) {
    throw new TerminalError(`invalid selector of DaemonSet ${ds.metadata.namespace}/${ds.metadata.name}`, { cause: e });
  }
}
