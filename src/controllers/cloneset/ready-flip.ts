/**
 * cloneset-ready-gate: writes a CloneSet pod's `InPlaceUpdateReady=True` from the pod's own event,
 * the same write (and the same lifecycle move riding on it) as the refresh of a CloneSet pass
 * (docs/design/inplace-update.md §5, docs/design/cloneset.md §17). A pass writes the images of up to
 * maxUnavailable pods before it returns, and the pods it started restart long before it does; the
 * next pass then flips them, and only the one after sees them available: a rollout went in lock-step
 * waves. Flipping here as soon as the kubelet reports the new containers lets the pass that is busy
 * with one wave find the previous one available when it returns. With this controller running, the
 * passes leave every True write (new pods' too) to it; the writes of both go into the CloneSet's
 * podUpdates, so neither judges a pod before the cache shows the other's write.
 */
import { objectKey } from '../../api/meta.js';
import { InPlaceUpdateReadyCondition, LifecycleState } from '../../api/kruise/workloads/labels.js';
import { podLifecycleState } from '../../control/lifecycle/index.js';
import { hasGrace, hasInPlaceReadinessGate, InPlaceUpdater, planRefresh, podCondition, type RefreshResult } from '../../control/inplaceupdate/index.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import { controllerRef } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import type { Client } from '../../client/client.js';
import type { CloneSet } from './pods.js';
import { withLabelFix } from './refresh-labels.js';
import type { Pod } from '../../api/core/index.js';

/**
 * Pods with a write in flight, a pass's in-place update or this controller's True: between a pass's
 * False and its spec write, a True would undo the False. Taken and checked in one turn of the event
 * loop; a pass letting a pod go hands it back to this controller (its events may have come meanwhile).
 */
export class PodsInFlight {
  private readonly keys = new Set<string>();
  /** Set by the controller: called when a pass lets a pod go. */
  onPassRelease?: (key: string) => void;

  take(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }

  release(key: string, byPass: boolean): void {
    this.keys.delete(key);
    if (byPass) this.onPassRelease?.(key);
  }
}

/**
 * A live CloneSet pod whose gate condition is there but not plainly True, with no grace period
 * pending. New pods (no condition yet) stay with the pass (ready-gate.ts): taking them here made
 * their write race pod-readiness-controller's and cost a recreate rollout more than it saved.
 */
export function awaitsReadyFlip(pod: Pod): boolean {
  if (pod.metadata.deletionTimestamp || controllerRef(pod)?.kind !== 'CloneSet' || !hasInPlaceReadinessGate(pod) || hasGrace(pod)) return false;
  const c = podCondition(pod, InPlaceUpdateReadyCondition);
  return !!c && (c.status !== 'True' || !!c.reason || !!c.message);
}

export interface ReadyFlipDeps {
  client: Client;
  pods: Informer<Pod>;
  cloneSets: Informer<CloneSet>;
  /** The CloneSet controller's own: its passes and this worker see each other's pod writes. */
  podUpdates: ResourceVersionExpectations;
  inFlight: PodsInFlight;
}

export class ReadyFlipReconciler {
  constructor(private readonly d: ReadyFlipDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const pod = this.d.pods.get(req.namespace, req.name);
    if (!pod || !awaitsReadyFlip(pod)) return;
    const key = objectKey(pod);
    // a write of ours (pass or worker) not in the cache yet: the pod's next event brings it back
    if (!this.d.podUpdates.isUpdatedSatisfied(key, pod)) return;
    const ref = controllerRef(pod)!;
    const cs = this.d.cloneSets.get(pod.metadata.namespace, ref.name);
    if (!cs || cs.metadata.uid !== ref.uid || cs.metadata.deletionTimestamp) return;
    if (podLifecycleState(pod) === LifecycleState.PreparingUpdate) return;
    const now = ctx.clock.now();
    const updater = new InPlaceUpdater(this.d.client, { now: () => new Date(now) });
    if (planRefresh(pod, new Date(now)).kind !== 'updateStatus') return;
    // a pass is updating it: the pass's release brings it back
    if (!this.d.inFlight.take(key)) return;
    let r: RefreshResult;
    try {
      r = await updater.refresh(pod, { onReady: (next) => this.labelFix(cs, pod, next, now) });
      if (r.pod) this.d.podUpdates.expectUpdated(key, r.pod); // before the key is let go
    } finally {
      this.d.inFlight.release(key, false);
    }
    // a conflict or a vanished pod: the cache is behind, the next event decides again
    if (r.error && !isConflict(r.error) && !isNotFound(r.error)) throw r.error;
  }

  /** The pass's lifecycle and hash-label fix for this pod. */
  private labelFix(cs: CloneSet, pod: Pod, next: Pod, now: number): void {
    // isUpdated only matters to a pod in PreparingUpdate, which reconcile leaves to the pass
    withLabelFix({ cs, now, isUpdated: () => false }, pod, next, cs.spec.lifecycle?.inPlaceUpdate?.markPodNotReady ?? false);
  }
}
