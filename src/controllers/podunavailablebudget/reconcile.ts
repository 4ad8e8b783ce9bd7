/**
 * podunavailablebudget-controller (docs/design/podunavailablebudget.md §5): binds the PUB's pods to
 * it, prunes the webhook's bookkeeping (deleted pods, timed-out entries) and writes
 * totalReplicas, desiredAvailable, currentAvailable and unavailableAllowed under the PUB's mutex.
 */
import type { Pod } from '../../api/core/index.js';
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import {
  desiredAvailable, isPubAvailable, pruneMaps, relatedPub, relatedPubAnnotations, retryDelay, conflictRetry, withPubLock, writtenPubs,
} from '../../control/pubcontrol/index.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { podsForPub, type WorkloadCaches } from './pods.js';

type Status = NonNullable<PodUnavailableBudget['status']>;

export interface PubReconcilerDeps extends WorkloadCaches {
  pubs: Informer<PodUnavailableBudget>;
  client: Client;
  events: EventRecorder;
}

export class PubReconciler {
  constructor(private readonly d: PubReconcilerDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const cached = this.d.pubs.get(req.namespace, req.name);
    if (!cached || cached.metadata.deletionTimestamp) {
      writtenPubs.forget(req.namespace, req.name);
      return;
    }
    const { pods, total } = podsForPub(this.d, cached);
    if (pods.length === 0) this.d.events.event(cached, 'Normal', 'NoPods', 'No matching pods found');
    await this.bindPods(cached, pods);
    let desired: number;
    try {
      desired = desiredAvailable(cached, total);
    } catch (e) {
      this.d.events.event(cached, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${String(e)}`);
      throw e;
    }
    const recheckMs = await withPubLock(cached.metadata.uid ?? req.name, () => this.writeStatus(ctx, cached, pods, total, desired));
    return recheckMs === undefined ? undefined : { requeueAfterMs: recheckMs };
  }

  /** Both related-pub annotations on selected pods that lack them. */
  private async bindPods(pub: PodUnavailableBudget, pods: Pod[]): Promise<void> {
    for (const pod of pods.filter((p) => !relatedPub(p))) {
      await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { annotations: relatedPubAnnotations(pub.metadata.name!) } })
        .catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
  }

  private async writeStatus(ctx: ReconcileContext, cached: PodUnavailableBudget, pods: Pod[], total: number, desired: number): Promise<number | undefined> {
    let pub = writtenPubs.newest(cached);
    for (let attempt = 0; ; attempt++) {
      const now = ctx.clock.now();
      const pruned = pruneMaps(pub, new Set(pods.map((p) => p.metadata.name!)), now);
      const recorded = new Set([...Object.keys(pruned.disruptedPods), ...Object.keys(pruned.unavailablePods)]);
      const current = pods.filter((p) => !recorded.has(p.metadata.name!) && isPubAvailable(p)).length;
      const status: Status = {
        totalReplicas: total, desiredAvailable: desired, currentAvailable: current, unavailableAllowed: Math.max(0, current - desired),
        disruptedPods: pruned.disruptedPods, unavailablePods: pruned.unavailablePods, observedGeneration: pub.metadata.generation,
      };
      for (const name of pruned.notDeleted) {
        const pod = pods.find((p) => p.metadata.name === name);
        if (pod) this.d.events.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NotDeleted', `Pod was expected by PUB ${pub.metadata.namespace}/${pub.metadata.name} to be deleted but it wasn't`);
      }
      if (sameStatus(pub.status, status)) return pruned.recheckMs;
      try {
        writtenPubs.note(await this.d.client.updateStatus<PodUnavailableBudget>(PodUnavailableBudgets, { ...pub, status }));
        return pruned.recheckMs;
      } catch (e) {
        if (isNotFound(e)) return undefined;
        if (!isConflict(e) || attempt + 1 >= conflictRetry.steps) throw e;
      }
      await retryDelay();
      pub = await this.d.client.get<PodUnavailableBudget>(PodUnavailableBudgets, cached.metadata.namespace, cached.metadata.name!);
    }
  }
}

/** Empty maps and absent maps are the same status. */
function sameStatus(a: Status | undefined, b: Status): boolean {
  if (!a) return false;
  const norm = (s: Status) => ({ ...s, disruptedPods: s.disruptedPods ?? {}, unavailablePods: s.unavailablePods ?? {} });
  return deepEqual(norm(a), norm(b));
}
