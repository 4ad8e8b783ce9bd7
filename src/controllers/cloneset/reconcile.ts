/**
 * The CloneSet reconciler (workloads.md §4.6.1): load, wait for scale expectations, list owned pods
 * and claims, release pods the selector no longer matches (orphans are never adopted), sync
 * revisions, run the scale phase and, when it wrote nothing, the update phase; then write status
 * and trim history.
 */
import type { CloneSetStatus } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict } from '../../client/retry.js';
import { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { deleteRevisions, revisionsToTrim, syncRevisions, type ControllerRevision } from '../../control/revision/index.js';
import { isNotFound } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import { requestKey, type Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { TerminalError, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { calculateDiffs, passNumbers } from './numbers.js';
import { groupCounts, newPassContext, podKey } from './pass.js';
import { isActive, type CloneSet, type Pod } from './pods.js';
import { scalePhase } from './scale.js';
import { calculateStatus, statusChanged } from './status.js';
import { updatePhase } from './update.js';

export const CloneSets: ResourceType = { group: 'apps.kruise.io', version: 'v1beta1', resource: 'clonesets', kind: 'CloneSet', namespaced: true };

export interface CloneSetReconcilerDeps {
  client: Client;
  cloneSets: Informer<CloneSet>;
  pods: Informer<Pod>;
  claims: Informer<KObject>;
  revisions: Informer<ControllerRevision>;
  expectations: ScaleExpectations;
  podUpdates: ResourceVersionExpectations;
  events: EventRecorder;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const minOf = (...xs: (number | undefined)[]) => xs.reduce<number | undefined>((m, x) => (x === undefined ? m : m === undefined ? x : Math.min(m, x)), undefined);

export class CloneSetReconciler {
  constructor(private readonly d: CloneSetReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = requestKey(req);
    const cs = this.d.cloneSets.get(req.namespace, req.name);
    if (!cs) {
      this.d.expectations.delete(key);
      return {};
    }
    if (!this.d.expectations.satisfied(key)) return { requeueAfterMs: Math.min(this.d.expectations.waitMs(key), 5_000) };
    const uid = cs.metadata.uid!;
    const owned = this.d.pods.byIndex(IndexNames.controllerUid, uid);
    const pods = await this.releaseUnmatched(cs, owned.filter(isActive));
    // A pod this controller just wrote is judged only once the cache shows that write.
    if (!pods.every((p) => this.d.podUpdates.isUpdatedSatisfied(podKey(p), p))) return { requeueAfterMs: 1_000 };
    const claims = this.d.claims.byIndex(IndexNames.controllerUid, uid).filter((c) => !c.metadata.deletionTimestamp);
    const synced = await syncRevisions(this.d.client, cs, this.d.revisions.byIndex(IndexNames.controllerUid, uid));
    const current = synced.currentRevision;
    const update = synced.updateRevision;
    const now = ctx.clock.now();
    const c = newPassContext({ client: this.d.client, events: this.d.events, expectations: this.d.expectations, podUpdates: this.d.podUpdates, key, cs, pods, claims, now }, update.metadata.name!);
    let failure: { type: 'FailedScale' | 'FailedUpdate'; message: string } | undefined;
    let error: unknown;
    let requeue: number | undefined;
    if (!cs.metadata.deletionTimestamp) {
      try {
        const { nw, old } = groupCounts(c);
        const diffs = calculateDiffs(passNumbers(cs), nw, old, cs.spec.scaleStrategy?.excludePreparingDelete ?? false);
        const scaled = await scalePhase(c, diffs, current, update);
        if (!scaled) {
          try {
            const updater = new InPlaceUpdater(this.d.client, { now: () => new Date(ctx.clock.now()) });
            requeue = (await updatePhase(c, updater, synced.revisions, current, update)).requeueAfterMs;
          } catch (e) {
            failure = { type: 'FailedUpdate', message: messageOf(e) };
            error = e;
          }
        }
      } catch (e) {
        if (!failure) failure = { type: 'FailedScale', message: messageOf(e) };
        error = e;
      }
    }
    const { status, requeueAfterMs } = calculateStatus(cs, pods, {
      updateRevision: update.metadata.name!, currentRevision: current.metadata.name!, collisionCount: synced.collisionCount, now, failure,
    });
    if (statusChanged(cs.status, status)) await this.writeStatus(cs, status);
    const labels = pods.map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]);
    const currentAfter = synced.revisions.find((r) => r.metadata.name === status.currentRevision) ?? current;
    await deleteRevisions(this.d.client, revisionsToTrim(synced.revisions, labels, currentAfter, update, cs.spec.revisionHistoryLimit ?? 10));
    if (error !== undefined) throw error;
    const after = minOf(requeue, requeueAfterMs);
    return after !== undefined ? { requeueAfterMs: after } : {};
  }

  /** Owned pods whose labels stop matching lose their ownerRef; the rest are returned. */
  private async releaseUnmatched(cs: CloneSet, pods: Pod[]): Promise<Pod[]> {
    let selector;
    try {
      selector = selectorFromLabelSelector(cs.spec.selector as MetaLabelSelector);
    } catch (e) {
      throw new TerminalError(`invalid selector of CloneSet ${cs.metadata.namespace}/${cs.metadata.name}`, { cause: e });
    }
    const kept: Pod[] = [];
    for (const pod of pods) {
      if (selector.matches(pod.metadata.labels)) {
        kept.push(pod);
        continue;
      }
      const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== cs.metadata.uid);
      try {
        await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'merge', {
          metadata: { ownerReferences: refs, uid: pod.metadata.uid },
        });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    return kept;
  }

  private async writeStatus(cs: CloneSet, status: CloneSetStatus): Promise<void> {
    let current = cs;
    let first = true;
    try {
      await retryOnConflict(async () => {
        if (!first) current = await this.d.client.get<CloneSet>(CloneSets, cs.metadata.namespace, cs.metadata.name!);
        first = false;
        if (current.metadata.uid !== cs.metadata.uid) return;
        await this.d.client.updateStatus(CloneSets, { ...current, status });
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
