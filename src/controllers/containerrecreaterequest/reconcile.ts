/**
 * containerrecreaterequest-controller (manager side; docs/design/container-recreate.md §3): it never
 * touches containers. It finishes requests the daemon cannot (pod gone, daemon silent, deadline),
 * removes the active label and deletes after the TTL once finished, keeps the container snapshot
 * the daemon judges readiness by, and holds the pod not-ready for `unreadyGracePeriodSeconds`.
 */
import type { Pod } from '../../api/core/index.js';
import { CRRActiveLabel, CRRUnreadyAcquiredKey, CRRPreRecreateGraceCondition } from '../../api/kruise/ops/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import { rfc3339, timeOf } from '../../machinery/time.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { acquirePodNotReady, releasePodNotReady } from './pod-readiness.js';
import { containerSnapshot, isFinished, podGone, PodGoneMessage, snapshotRefreshMs, timeVerdict, type CRR, type Verdict } from './rules.js';

export interface CRRReconcilerDeps {
  client: Client;
  requests: Informer<CRR>;
  pods: Informer<Pod>;
}

export class ContainerRecreateRequestReconciler {
  constructor(private readonly deps: CRRReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const crr = this.deps.requests.get(req.namespace, req.name);
    if (!crr) return;
    const pod = this.deps.pods.get(req.namespace, crr.spec!.podName);
    const now = ctx.clock.now();
    if (crr.metadata?.deletionTimestamp || isFinished(crr)) return this.finished(crr, pod, now);
    if (podGone(crr, pod)) return this.complete(crr, { message: PodGoneMessage }, now);
    const verdict = timeVerdict(crr, now);
    if (verdict.complete) return this.complete(crr, verdict.complete, now);
    if (crr.status?.phase !== 'Recreating') return requeue(verdict.recheckMs);
    await this.syncSnapshot(crr, pod!);
    const graced = crr.status.conditions?.some((c) => c.type === CRRPreRecreateGraceCondition);
    if (crr.spec?.strategy?.unreadyGracePeriodSeconds !== undefined && !graced) {
      await acquirePodNotReady(this.deps.client, crr, pod!, new Date(now));
    }
    return requeue(Math.min(verdict.recheckMs ?? snapshotRefreshMs, snapshotRefreshMs));
  }

  /** Rule 1: let go of the pod, drop the active label, delete after the TTL. */
  private async finished(crr: CRR, pod: Pod | undefined, now: number): Promise<Result | void> {
    if (crr.metadata?.finalizers?.includes(CRRUnreadyAcquiredKey)) await releasePodNotReady(this.deps.client, crr, pod, new Date(now));
    if (crr.metadata?.deletionTimestamp) return;
    if (crr.metadata?.labels?.[CRRActiveLabel] !== undefined) {
      await this.deps.client.patch(ContainerRecreateRequests, crr.metadata.namespace, crr.metadata.name!, 'merge', { metadata: { labels: { [CRRActiveLabel]: null } } });
      return;
    }
    const ttl = crr.spec?.ttlSecondsAfterFinished;
    if (ttl === undefined) return;
    const left = ttl * 1000 - (now - (timeOf(crr.status?.completionTime) ?? now));
    if (left > 0) return { requeueAfterMs: left };
    try {
      await this.deps.client.delete(ContainerRecreateRequests, crr.metadata?.namespace, crr.metadata!.name!, { preconditions: { uid: crr.metadata?.uid } });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  private async complete(crr: CRR, how: NonNullable<Verdict['complete']>, now: number): Promise<void> {
    const status = { ...crr.status, phase: 'Completed' as const, completionTime: rfc3339(now), message: how.message };
    if (how.states) status.containerRecreateStates = how.states;
    await this.deps.client.updateStatus(ContainerRecreateRequests, { ...crr, status });
  }

  /** Rule 5: the snapshot, kept when the pod shows none of the new attempts yet. */
  private async syncSnapshot(crr: CRR, pod: Pod): Promise<void> {
    const snapshot = containerSnapshot(crr, pod);
    if (snapshot.length === 0 || deepEqual(snapshot, crr.status?.containerStatusSnapshot)) return;
    await this.deps.client.patch(ContainerRecreateRequests, crr.metadata?.namespace, crr.metadata!.name!, 'merge',
      { status: { containerStatusSnapshot: snapshot } }, { subresource: 'status' });
  }
}

const requeue = (ms: number | undefined): Result | void => (ms === undefined ? undefined : { requeueAfterMs: ms });
