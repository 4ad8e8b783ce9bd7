/**
 * sidecarset-controller (docs/design/sidecarset.md §4-§5): keeps the SidecarSet's revisions and
 * status, then, unless the update is NotUpdate or paused, upgrades the sidecars of the next pods in
 * place. It waits while its own pod writes are not yet in the cache.
 */
import type { ControllerRevision, Namespace, Pod } from '../../api/core/index.js';
import { SidecarSets } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { setUpgradable } from './conditions.js';
import { isMatchedPod } from './pod-state.js';
import { hotResetPod, needsHotReset } from './hot-upgrade.js';
import type { PodTally } from './pod-tally.js';
import { upgradePod, withInPlaceState, writePod } from './pod-upgrade.js';
import { syncRevisions, truncateHistory } from './revisions.js';
import { computeStatus } from './status.js';
import { planUpgrade } from './upgrade-plan.js';

export const injectedIndex = 'sidecarset-injected';
/** ControllerRevisions by the SidecarSet named in their label. */
export const revisionIndex = 'sidecarset-revisions';

export interface SidecarSetDeps {
  client: Client;
  sets: Informer<SidecarSet>;
  pods: Informer<Pod>;
  namespaces: Informer<Namespace>;
  revisions: Informer<ControllerRevision>;
  writes: ResourceVersionExpectations;
  events: EventRecorder;
  kruiseNamespace: string;
  tally: PodTally;
}

const observeWaitMs = 1_000;
const podKey = (p: Pod) => `pod/${p.metadata.namespace}/${p.metadata.name}`;

export class SidecarSetReconciler {
  /** Pod keys written per SidecarSet whose write the cache may not show yet. */
  private readonly written = new Map<string, Set<string>>();

  constructor(private readonly d: SidecarSetDeps) {}

  matchedPods(set: SidecarSet): Pod[] {
    const labels = (ns: string) => this.d.namespaces.get(undefined, ns)?.metadata.labels ?? (this.d.namespaces.get(undefined, ns) ? {} : undefined);
    return this.d.pods.byIndex(injectedIndex, set.metadata.name!).filter((p) => isMatchedPod(set, p, labels(p.metadata.namespace!)));
  }

  /** Only the pods written since the last pass are looked at here, not every injected pod (pod-tally.ts). */
  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const set = this.d.sets.get(undefined, req.name);
    if (!set || set.metadata.deletionTimestamp) return;
    const name = set.metadata.name!;
    if (!this.writesObserved(name)) return { requeueAfterMs: observeWaitMs };
    const pods = () => this.d.pods.byIndex(injectedIndex, name);
    const revisions = this.d.revisions.byIndex(revisionIndex, name).filter((r) => r.metadata.namespace === this.d.kruiseNamespace);
    const { latest, collisionCount } = await syncRevisions(this.d.client, set, revisions, this.d.kruiseNamespace);
    const counts = this.d.tally.counts(set, pods);
    const status = computeStatus(set, counts, latest.metadata.name, collisionCount);
    if (!deepEqual(status, set.status)) {
      await this.d.client.updateStatus<SidecarSet>(SidecarSets, { ...set, status });
    }
    await truncateHistory(this.d.client, set, revisions, latest.metadata.name!, pods);
    const strategy = set.spec?.updateStrategy;
    if (strategy?.type === 'NotUpdate' || strategy?.paused) return;
    if (counts.updatedPods >= counts.matchedPods && counts.resetting === 0) return;
    return this.upgrade(ctx, set, this.matchedPods(set), latest.metadata.name!);
  }

  /** Every pod write of ours for this SidecarSet is in the cache (the satisfied ones are forgotten). */
  private writesObserved(name: string): boolean {
    const keys = this.written.get(name);
    if (!keys) return true;
    for (const key of keys) {
      const [namespace, pod] = key.slice('pod/'.length).split('/');
      if (!this.d.writes.isUpdatedSatisfied(key, this.d.pods.get(namespace, pod!))) return false;
      keys.delete(key);
    }
    this.written.delete(name);
    return true;
  }

  private expectWritten(set: SidecarSet, pod: Pod): void {
    const name = set.metadata.name!;
    this.d.writes.expectUpdated(podKey(pod), pod);
    let keys = this.written.get(name);
    if (!keys) this.written.set(name, (keys = new Set()));
    keys.add(podKey(pod));
  }

  /** Idle hot-upgrade copies go back to the empty image first; returns whether any pod is still resetting. */
  private async hotReset(set: SidecarSet, matched: Pod[], revision: string, now: number): Promise<boolean> {
    const resetting = matched.filter((p) => needsHotReset(set, p));
    for (const pod of resetting) {
      const written = await writePod(this.d.client, pod, (p) => {
        const r = hotResetPod(set, p);
        return r && withInPlaceState(set, r.pod, revision, r.replaced, now);
      });
      if (!written) continue;
      this.expectWritten(set, written);
      this.d.events.event(set, 'Normal', 'ResetContainerSucceed', `reset sidecar container image empty successfully, pod(${pod.metadata.namespace}/${pod.metadata.name})`);
    }
    return resetting.length > 0;
  }

  private async upgrade(ctx: ReconcileContext, set: SidecarSet, matched: Pod[], revision: string): Promise<Result | void> {
    const now = ctx.clock.now();
    if (await this.hotReset(set, matched, revision, now)) return;
    const plan = planUpgrade(set, matched);
    for (const pod of plan.notUpgradable) await setUpgradable(this.d.client, pod, set.metadata.name!, false, now);
    if (plan.notUpgradable.length > 0) {
      this.d.events.event(set, 'Normal', 'NotUpgradablePods', `SidecarSet in-place update detected ${plan.notUpgradable.length} not upgradable pod(s) in this round, will skip them.`);
    }
    for (const pod of plan.upgrade) {
      const written = await upgradePod(this.d.client, set, pod, revision, now);
      if (!written) continue;
      this.expectWritten(set, written);
      await setUpgradable(this.d.client, written, set.metadata.name!, true, now);
    }
  }
}
