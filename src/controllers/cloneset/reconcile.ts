/**
 * The CloneSet reconciler (docs/design/cloneset.md §6): load, wait for scale expectations, list owned pods
 * and claims, clean up claims (without PVC reuse), release pods the selector no longer matches
 * (orphans are never adopted), sync revisions, run the scale phase and, when it wrote nothing, the
 * update phase; then write status, prune podsToDelete and trim history.
 */
import { objectKey, type KObject } from '../../api/meta.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSetStatus } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict } from '../../client/retry.js';
import { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { deleteRevisions, revisionsToTrim, syncRevisions, type SyncedRevisions } from '../../control/revision/index.js';
import { isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import { requestKey, type Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { applyClaimPlan, planClaims } from './claims.js';
import { calculateDiffs, passNumbers } from './numbers.js';
import { markNewPodsReady } from './ready-gate.js';
import type { PodsInFlight } from './ready-flip.js';
import { releaseUnmatched } from './release.js';
import { prunePodsToDelete, revisionOptions, syncClaimTemplateHash } from './spec-sync.js';
import { groupCounts, newPassContext, partitionRollback, scaleCountsAsUpdated, type PassContext } from './pass.js';
import { isActive, type CloneSet } from './pods.js';
import { scalePhase } from './scale.js';
import { calculateStatus, statusChanged } from './status.js';
import { updatePhase } from './update.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export { CloneSets };

export interface CloneSetReconcilerDeps {
  client: Client;
  cloneSets: Informer<CloneSet>;
  pods: Informer<Pod>;
  claims: Informer<KObject>;
  revisions: Informer<ControllerRevision>;
  /** Node labels for spread ranking on scale-in (optional). */
  nodes?: Informer<KObject>;
  expectations: ScaleExpectations;
  podUpdates: ResourceVersionExpectations;
  events: EventRecorder;
  /** Enabled feature gates (docs/design/cloneset.md §15). */
  gate: (name: string) => boolean;
  /** Shared with cloneset-ready-gate, when it runs (pass.ts). */
  readyGate?: PodsInFlight;
}

interface Pass {
  c: PassContext;
  synced: SyncedRevisions;
}

interface SyncOutcome {
  requeueAfterMs?: number;
  failure?: { type: 'FailedScale' | 'FailedUpdate'; message: string };
  error?: unknown;
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
    const pass = await this.load(ctx, key, cs);
    if (!pass) return { requeueAfterMs: 1_000 };
    const outcome = cs.metadata.deletionTimestamp ? {} : await this.sync(ctx, pass);
    const requeueAfterMs = minOf(outcome.requeueAfterMs, await this.finish(pass, outcome.failure));
    if (outcome.error !== undefined) throw outcome.error;
    return requeueAfterMs !== undefined ? { requeueAfterMs } : {};
  }

  /** Steps 2-5: claims, pods, revisions; undefined while a pod write of ours is not in the cache yet. */
  private async load(ctx: ReconcileContext, key: string, cs: CloneSet): Promise<Pass | undefined> {
    const uid = cs.metadata.uid!;
    const owned = this.d.pods.byIndex(IndexNames.controllerUid, uid);
    const base = { client: this.d.client, events: this.d.events, expectations: this.d.expectations, key, cs };
    const liveClaims = this.d.claims.byIndex(IndexNames.controllerUid, uid).filter((c) => !c.metadata.deletionTimestamp);
    const claimPlan = planClaims(owned.filter(isActive), owned.filter((p) => !isActive(p)), liveClaims, cs.spec.scaleStrategy?.enablePVCReuse ?? false);
    await applyClaimPlan(base, claimPlan);
    const pods = await releaseUnmatched(this.d.client, cs, owned.filter(isActive));
    // A pod this controller just wrote is judged only once the cache shows that write.
    if (!pods.every((p) => this.d.podUpdates.isUpdatedSatisfied(objectKey(p), p))) return undefined;
    const synced = await syncRevisions(this.d.client, cs, this.d.revisions.byIndex(IndexNames.controllerUid, uid), revisionOptions(cs));
    await syncClaimTemplateHash(this.d.client, cs, synced.updateRevision);
    const nodes = this.d.nodes;
    const c = newPassContext({
      ...base, podUpdates: this.d.podUpdates, pods, owned, claims: claimPlan.keep, now: ctx.clock.now(), gate: this.d.gate,
      ...(this.d.readyGate ? { readyGate: this.d.readyGate } : {}),
      ...(nodes ? { nodeLabels: (name: string) => nodes.get(undefined, name)?.metadata.labels } : {}),
    }, synced.updateRevision.metadata.name!);
    return { c, synced };
  }

  /** Steps 7-8: the scale phase, then (when it changed nothing) the update phase; new pods' gate first. */
  private async sync(ctx: ReconcileContext, { c, synced }: Pass): Promise<SyncOutcome> {
    const { currentRevision: current, updateRevision: update } = synced;
    const updater = new InPlaceUpdater(this.d.client, { now: () => new Date(ctx.clock.now()), gated: { envFromMetadata: this.d.gate('InPlaceUpdateEnvFromMetadata') } });
    try {
      await markNewPodsReady(c, updater);
    } catch (error) {
      return { error, failure: { type: 'FailedUpdate', message: messageOf(error) } };
    }
    let scaled: boolean;
    try {
      const { nw, old } = groupCounts(c, scaleCountsAsUpdated(c));
      const diffs = calculateDiffs(passNumbers(c.cs), nw, old, c.cs.spec.scaleStrategy?.excludePreparingDelete ?? false, partitionRollback(c, current, update));
      scaled = await scalePhase(c, diffs, current, update);
    } catch (error) {
      return { error, failure: { type: 'FailedScale', message: messageOf(error) } };
    }
    if (scaled) return {};
    try {
      return { requeueAfterMs: (await updatePhase(c, updater, synced.revisions, current, update)).requeueAfterMs };
    } catch (error) {
      return { error, failure: { type: 'FailedUpdate', message: messageOf(error) } };
    }
  }

  /** Step 9: status, podsToDelete pruning, history; returns the status requeue (minReadySeconds, deadline). */
  private async finish({ c, synced }: Pass, failure: SyncOutcome['failure']): Promise<number | undefined> {
    const { cs, pods } = c;
    const { status, requeueAfterMs } = calculateStatus(cs, pods, {
      updateRevision: synced.updateRevision.metadata.name!, currentRevision: synced.currentRevision.metadata.name!,
      collisionCount: synced.collisionCount, now: c.now, failure,
    });
    if (statusChanged(cs.status, status)) await this.writeStatus(cs, status);
    await prunePodsToDelete(this.d.client, cs, pods);
    const labels = pods.map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]);
    const currentAfter = synced.revisions.find((r) => r.metadata.name === status.currentRevision) ?? synced.currentRevision;
    await deleteRevisions(this.d.client, revisionsToTrim(synced.revisions, labels, currentAfter, synced.updateRevision, cs.spec.revisionHistoryLimit ?? 10));
    return requeueAfterMs;
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
