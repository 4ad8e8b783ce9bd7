/**
 * The StatefulSet controller (apps/v1), like upstream's StatefulSetControl.UpdateStatefulSet:
 * claim pods, settle the current and update revisions, keep claim owners in line with the
 * retention policy, carry out the plan (create / delete in ordinal order), write status computed
 * afresh, and prune revision history.
 */
import { ControllerRevisions, Pods, StatefulSets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isNotFound } from '../../../machinery/errors.js';
import { selectorFromLabelSelector, type LabelSelector } from '../../../machinery/labels.js';
import { TerminalError, type ReconcileContext, type Request, type Result } from '../../../runtime/controller.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ResourceVersionExpectations, ScaleExpectations } from '../../../runtime/expectations.js';
import { IndexNames } from '../../../runtime/indexers.js';
import { cachedOrRequeue } from '../../../runtime/reconcile.js';
import type { Informer } from '../../../runtime/informer.js';
import { claimObjects, recheckOwner } from '../../../control/ownership/index.js';
import { newStatefulSetPod, ordinalOf } from './identity.js';
import { planStatefulSet, splitByOrdinal, type Plan } from './plan.js';
import type { StatefulPodControl } from './pod-control.js';
import { staleRevisions, syncRevisions, type SetRevisions } from './revisions.js';
import { computeStatus, nextAvailableMs } from './status.js';
import type { Pod, ControllerRevision, StatefulSet } from '../../../api/core/index.js';

export interface StatefulSetReconcilerOptions {
  client: Client;
  sets: Informer<StatefulSet>;
  pods: Informer<Pod>;
  revisions: Informer<ControllerRevision>;
  control: StatefulPodControl;
  expectations: ScaleExpectations;
  statusWrites: ResourceVersionExpectations;
  events: EventRecorder;
}

export class StatefulSetReconciler {
  constructor(private readonly o: StatefulSetReconcilerOptions) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const { key, object: set, result } = cachedOrRequeue(this.o.sets, req, { scale: this.o.expectations, writes: this.o.statusWrites });
    if (!set) return result ?? {};
    const pods = await this.claimPods(set, parseSelector(set));
    const revs = await syncRevisions(this.o.client, set, this.o.revisions.byIndex(IndexNames.controllerUid, set.metadata.uid!));
    const now = ctx.clock.now();
    if (!set.metadata.deletionTimestamp) {
      await this.syncClaims(set, pods);
      const plan = planStatefulSet({ set, pods, currentRevision: revs.current.metadata.name!, updateRevision: revs.update.metadata.name!, now });
      if (plan.waitingFor) ctx.log.debug({ waitingFor: plan.waitingFor }, 'StatefulSet waiting');
      await this.apply(key, set, plan, revs);
    }
    const status = computeStatus({ set, pods, currentRevision: revs.current.metadata.name!, updateRevision: revs.update.metadata.name!, collisionCount: revs.collisionCount, now });
    if (!deepEqual(status, set.status ?? {})) {
      const written = await this.o.client.updateStatus(StatefulSets, { ...set, status });
      this.o.statusWrites.expectUpdated(key, written);
    }
    await this.pruneHistory(set, revs, pods);
    const wait = nextAvailableMs(set, pods, now);
    return wait === undefined ? {} : { requeueAfterMs: wait };
  }

  private async claimPods(set: StatefulSet, selector: LabelSelector): Promise<Pod[]> {
    const candidates = this.o.pods.byIndex(IndexNames.namespace, set.metadata.namespace!);
    return claimObjects(candidates, {
      client: this.o.client, type: Pods, owner: set, ownerApiVersion: 'apps/v1', ownerKind: 'StatefulSet', selector,
      canAdopt: recheckOwner(this.o.client, StatefulSets, set),
    });
  }

  /** Existing pods get their missing claims back and claim owners per the retention policy. */
  private async syncClaims(set: StatefulSet, pods: Pod[]): Promise<void> {
    if ((set.spec?.volumeClaimTemplates ?? []).length === 0) return;
    const { slots, condemned } = splitByOrdinal(set, pods);
    for (const pod of slots) {
      if (!pod || pod.metadata.deletionTimestamp) continue;
      const ordinal = ordinalOf(set, pod)!;
      await this.o.control.createMissingClaims(set, pod, ordinal);
      await this.o.control.updateClaimOwners(set, pod, ordinal, false);
    }
    for (const pod of condemned) await this.o.control.updateClaimOwners(set, pod, ordinalOf(set, pod), true);
  }

  private async apply(key: string, set: StatefulSet, plan: Plan, revs: SetRevisions): Promise<void> {
    for (const step of plan.steps) {
      if (step.kind === 'create') {
        const revision = step.revision === 'current' ? revs.current : revs.update;
        await this.o.control.createPod(key, set, newStatefulSetPod(set, revision, step.ordinal), step.ordinal);
        continue;
      }
      const { pod, why } = step;
      if (why === 'finished') {
        const failed = pod.status?.phase === 'Failed';
        this.o.events.event(set, 'Warning', failed ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod',
          `StatefulSet ${set.metadata.namespace}/${set.metadata.name} is recreating ${failed ? 'failed' : 'terminated'} Pod ${pod.metadata.name}`);
      }
      await this.o.control.deletePod(key, set, pod, ordinalOf(set, pod), why === 'condemned');
    }
  }

  private async pruneHistory(set: StatefulSet, revs: SetRevisions, pods: Pod[]): Promise<void> {
    for (const revision of staleRevisions(set, revs, pods)) {
      try {
        await this.o.client.delete(ControllerRevisions, revision.metadata.namespace, revision.metadata.name!);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}

function parseSelector(set: StatefulSet): LabelSelector {
  try {
    const selector = selectorFromLabelSelector(set.spec?.selector);
    if (selector.empty) throw new Error('empty selector');
    return selector;
  } catch (e) {
    throw new TerminalError(`invalid selector of StatefulSet ${set.metadata.namespace}/${set.metadata.name}`, { cause: e });
  }
}
