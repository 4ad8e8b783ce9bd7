/**
 * The Advanced StatefulSet reconciler (docs/design/advanced-statefulset.md §5): load the set, wait for scale
 * expectations and for the cache to show this controller's pod writes, claim pods, sync
 * revisions, then run the replica, scale-in and rolling-update phases (each may end the pass);
 * finally write status computed afresh (also after a failure) and trim revision history. Status is
 * written only when it differs from the newest copy of the set (its last status write while the
 * cache lags), over that copy, and a conflict requeues instead of re-reading and retrying.
 */
import { objectKey } from '../../api/meta.js';
import { deleteRevisions, revisionsToTrim, syncRevisions } from '../../control/revision/index.js';
import { selectorFromLabelSelector, type LabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { requestKey, type Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { TerminalError, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { LifecycleState, LifecycleStateLabel } from '../../api/kruise/workloads/labels.js';
import { claimPods } from './adoption.js';
import { volumeClaimsStatus } from './claim-resize.js';
import { processCondemned } from './condemned.js';
import { replicaRange } from './ordinals.js';
import { NewestCopies } from '../../runtime/newest-copies.js';
import { type PassContext, type PassDeps } from './pass.js';
import { podRevision } from './pod-state.js';
import { newRefreshTracker } from './refresh.js';
import { processReplicas } from './replicas.js';
import { rollingUpdate } from './rolling-update.js';
import { fillMissing, splitPods } from './slots.js';
import { calculateStatus, statusChanged } from './status.js';
import { StatefulSets, type StatefulSet } from './types.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

const lifecycleOf = (pod: Pod) => pod.metadata.labels?.[LifecycleStateLabel];

export interface StatefulSetReconcilerDeps extends PassDeps {
  sets: Informer<StatefulSet>;
  pods: Informer<Pod>;
  revisions: Informer<ControllerRevision>;
}

/** After a status write lost a race: the set's own event normally brings the pass back first. */
const statusConflictRequeueMs = 1_000;

export class StatefulSetReconciler {
  /** Sets as this controller's status writes returned them, until the cache catches up. */
  private readonly written = new NewestCopies<StatefulSet>();

  constructor(private readonly d: StatefulSetReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const set = this.d.sets.get(req.namespace, req.name);
    if (!set) {
      this.d.expectations.delete(key);
      this.written.forget(req.namespace, req.name);
      return {};
    }
    if (!this.d.expectations.satisfied(key)) return { requeueAfterMs: Math.min(this.d.expectations.waitMs(key), 5_000) };
    const pods = await claimPods(this.d.client, this.d.pods, set, this.selectorOf(set));
    // A pod this controller just wrote is judged only once the cache shows that write.
    if (!pods.every((p) => this.d.podWrites.isUpdatedSatisfied(objectKey(p), p))) return { requeueAfterMs: 1_000 };
    const uid = set.metadata.uid!;
    const synced = await syncRevisions(this.d.client, set, this.d.revisions.byIndex(IndexNames.controllerUid, uid));
    const c = this.newPass(ctx, key, set, pods, synced);
    let error: unknown;
    if (!set.metadata.deletionTimestamp) {
      try {
        await this.runPhases(c);
      } catch (e) {
        error = e;
      }
    }
    const requeueAfterMs = await this.finish(c, synced.revisions, synced.collisionCount);
    if (error !== undefined) throw error;
    return requeueAfterMs !== undefined ? { requeueAfterMs } : {};
  }

  /** Writes the status computed from this pass and trims history; returns the requeue delay. */
  private async finish(c: PassContext, revisions: ControllerRevision[], collisionCount: number): Promise<number | undefined> {
    const { set } = c;
    const { status, requeueAfterMs } = calculateStatus(set, {
      pods: [...c.slots, ...c.condemned], currentRevision: c.current.metadata.name!, updateRevision: c.update.metadata.name!,
      collisionCount, now: c.now, deleted: c.deleted, failures: c.failures,
    });
    if (this.d.gate('StatefulSetAutoResizePVCGate')) {
      status.volumeClaims = volumeClaimsStatus(set, c.slots, (name) => this.d.claims.get(set.metadata.namespace, name));
    }
    const written = await this.written.writeStatus(this.d.client, StatefulSets, set, status, statusChanged);
    const current = revisions.find((r) => r.metadata.name === status.currentRevision) ?? c.current;
    const live = [...c.slots, ...c.condemned].map((p) => (p ? podRevision(p) : undefined));
    await deleteRevisions(this.d.client, revisionsToTrim(revisions, live, current, c.update, set.spec.revisionHistoryLimit ?? 10));
    const after = [c.requeueAfterMs, requeueAfterMs, written ? undefined : statusConflictRequeueMs].filter((x): x is number => x !== undefined);
    return after.length > 0 ? Math.min(...after) : undefined;
  }

  private async runPhases(c: PassContext): Promise<void> {
    const tracker = newRefreshTracker();
    if (await processReplicas(c, tracker)) {
      if (c.blockedBy) c.log.debug({ pod: c.blockedBy.metadata.name }, 'StatefulSet waiting for pod to be available');
      // Only the rolling update moves a pod out of PreparingUpdate; waiting on it would deadlock
      // OrderedReady (upstream does). The update budget still counts the held pod as unavailable.
      if (c.blockedBy && lifecycleOf(c.blockedBy) === LifecycleState.PreparingUpdate) await rollingUpdate(c, tracker);
      return;
    }
    if (await processCondemned(c)) return;
    await rollingUpdate(c, tracker);
  }

  private newPass(ctx: ReconcileContext, key: string, set: StatefulSet, pods: Pod[], synced: Awaited<ReturnType<typeof syncRevisions>>): PassContext {
    const now = ctx.clock.now();
    const range = replicaRange(set, this.d.gate);
    let split;
    try {
      split = splitPods(set, pods, range);
    } catch (e) {
      throw new TerminalError(`StatefulSet ${key}: ${(e as Error).message}`, { cause: e });
    }
    const revisions = { current: synced.currentRevision, update: synced.updateRevision };
    fillMissing(set, split.slots, range, revisions, this.d.gate, new Date(now));
    return {
      ...this.d, log: ctx.log, key, set, now, ...revisions, revisions: synced.revisions, range, ...split,
      deleted: new Set(), failures: new Map(),
    };
  }

  private selectorOf(set: StatefulSet): LabelSelector {
    try {
      return selectorFromLabelSelector(set.spec.selector as MetaLabelSelector);
    } catch (e) {
      throw new TerminalError(`invalid selector of StatefulSet ${set.metadata.namespace}/${set.metadata.name}`, { cause: e });
    }
  }
}
