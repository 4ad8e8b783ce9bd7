/**
 * The update phase of a CloneSet pass (docs/design/cloneset.md §9): refresh in-place state and lifecycle
 * labels first; then move up to |updateNum| pods to the target revision within the unavailability
 * budget, in place when the policy and the template change allow (behind the inPlaceUpdate hook:
 * PreparingUpdate until unhooked, then Updating), else by asking the scale phase to recreate them
 * (label apps.kruise.io/specified-delete).
 */
import { inPlaceUpdateAllowed, refusedUpdateRetryMs } from '../../control/pubcontrol/index.js';
import { objectKey } from '../../api/meta.js';
import { ControllerRevisionHashLabel, LifecycleState, LifecycleStateLabel, LifecycleTimestampAnnotation, PodUpdatePolicy, SpecifiedDeleteLabel } from '../../api/kruise/workloads/labels.js';
import { Pods } from '../../api/resource-type.js';
import { CloneSetVolumeClaimTemplateHashAnnotation } from '../../api/kruise/workloads/cloneset.js';
import { hasGrace, planRefresh, revisionHash, type InPlaceUpdater, type UpdateResult } from '../../control/inplaceupdate/index.js';
import { beforeInPlaceUpdate, podLifecycleState } from '../../control/lifecycle/index.js';
import { isConflict } from '../../machinery/errors.js';
import { forEachLimited } from '../../runtime/parallel.js';
import { calculateDiffs, passNumbers } from './numbers.js';
import { sortPodsToUpdate } from '../../control/updatesort/index.js';
import { groupCounts, inPlaceWriteConcurrency, partitionRollback, podRevisionLabels, podWriteConcurrency, type PassContext } from './pass.js';
import { lacksReadyCondition } from './ready-gate.js';
import { movePodToState } from './pod-state.js';
import { refreshLabels, withLabelFix } from './refresh-labels.js';
import { isPreDeleting, isUpdated } from './pods.js';
import { rfc3339 } from '../../machinery/time.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

export interface UpdateOutcome {
  requeueAfterMs?: number;
}

const minRequeue = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/**
 * Step 1: returns true when a pod's spec was written by the refresh (a grace period ending, the
 * next container batch): the phase then stops. The other writes of this step never make a pod
 * less available (`InPlaceUpdateReady` True; lifecycle moves to Normal or Updated; the hash
 * label), and this pass still sees those pods as before the write, unavailable, so the update
 * steps below may run on the same view without exceeding maxUnavailable. Stopping after them, as
 * upstream does, turns a rollout into lock-step waves: while completed pods keep arriving, every
 * pass has one to move to Normal, and none starts the next pod until the whole wave is done.
 */
async function refreshPods(c: PassContext, updater: InPlaceUpdater, out: UpdateOutcome): Promise<boolean> {
  let changed = false;
  const now = new Date(c.now);
  const markNotReady = c.cs.spec.lifecycle?.inPlaceUpdate?.markPodNotReady ?? false;
  await forEachLimited(c.pods, podWriteConcurrency, async (pod) => {
    const plan = planRefresh(pod, now);
    // cloneset-ready-gate writes the flip, lifecycle move included (ready-flip.ts)
    if (plan.kind === 'updateStatus' && c.readyGate && !lacksReadyCondition(pod)) return;
    // a pod without the condition had it written at the start of this pass (ready-gate.ts)
    if (plan.kind !== 'none' && !lacksReadyCondition(pod)) {
      // the lifecycle move and the hash label ride on the InPlaceUpdateReady flip, if that is the write
      const r = await updater.refresh(pod, { onReady: (next) => withLabelFix(c, pod, next, markNotReady) });
      // a conflict only says the cache is behind: the pod's own update event brings the pass back
      if (r.error && !isConflict(r.error)) throw r.error;
      if (r.pod) c.podUpdates.expectUpdated(objectKey(pod), r.pod);
      else if (r.newResourceVersion) c.podUpdates.expectUpdated(objectKey(pod), { metadata: { resourceVersion: r.newResourceVersion } });
      if (plan.kind === 'update') changed = true;
      // a spec write (or a lost race) means the pod is judged again on its next event
      if (plan.kind === 'update' || r.error || r.pod) return;
    } else if (plan.kind === 'none') {
      out.requeueAfterMs = minRequeue(out.requeueAfterMs, plan.requeueAfterMs);
    }
    await refreshLabels(c, pod, markNotReady);
  });
  return changed;
}

export async function updatePhase(
  c: PassContext, updater: InPlaceUpdater, revisions: ControllerRevision[], current: ControllerRevision, update: ControllerRevision,
): Promise<UpdateOutcome> {
  const out: UpdateOutcome = {};
  if (await refreshPods(c, updater, out)) return out;
  const strategy = c.cs.spec.updateStrategy;
  if (strategy?.type === 'OnDelete' || strategy?.rollingUpdate?.paused) return out;
  // Plain name equality here (docs/design/cloneset.md §9), bare hashes too under CloneSetShortHash.
  const onRevision = (r: ControllerRevision) => (c.gate('CloneSetShortHash')
    ? (p: Pod) => isUpdated(p, r.metadata.name!)
    : (p: Pod) => p.metadata.labels?.[ControllerRevisionHashLabel] === r.metadata.name);
  const onUpdate = onRevision(update);
  const { nw, old } = groupCounts(c, onUpdate);
  const diffs = calculateDiffs(passNumbers(c.cs), nw, old, false, partitionRollback(c, current, update));
  if (diffs.updateNum === 0) return out;
  const target = diffs.updateNum > 0 ? update : current;
  const onTarget = onRevision(target);
  const waiting = c.pods.filter((p) => !onTarget(p) && !isPreDeleting(p) && !hasGrace(p));
  const candidates = sortPodsToUpdate(waiting, strategy?.rollingUpdate, c.pods)
    .slice(0, Math.abs(diffs.updateNum));
  const unavailableOnTarget = c.pods.filter((p) => onTarget(p) && !c.isAvailable(p)).length;
  let unavailableAll = c.pods.filter((p) => !c.isAvailable(p)).length;
  const accepted: Pod[] = [];
  for (const pod of candidates) {
    if (unavailableOnTarget + accepted.length >= diffs.updateMaxUnavailable) break;
    if (c.isAvailable(pod)) {
      if (unavailableAll >= diffs.updateMaxUnavailable) break;
      unavailableAll++;
    }
    accepted.push(pod);
  }
  const policy = strategy?.rollingUpdate?.podUpdatePolicy ?? PodUpdatePolicy.ReCreate;
  const lanes = policy === PodUpdatePolicy.ReCreate ? podWriteConcurrency : inPlaceWriteConcurrency;
  await forEachLimited(accepted, lanes, async (pod) => {
    const requeue = await updateOne(c, updater, pod, policy, revisions, target);
    out.requeueAfterMs = minRequeue(out.requeueAfterMs, requeue);
  });
  return out;
}

/** Gate RecreatePodWhenChangeVCTInCloneSetGate: new claim templates need new claims, so a new pod (§15). */
function claimTemplatesChanged(c: PassContext, from: ControllerRevision, target: ControllerRevision): boolean {
  const hash = (r: ControllerRevision) => r.metadata.annotations?.[CloneSetVolumeClaimTemplateHashAnnotation];
  return c.gate('RecreatePodWhenChangeVCTInCloneSetGate') && hash(from) !== hash(target);
}

async function updateOne(
  c: PassContext, updater: InPlaceUpdater, pod: Pod, policy: string, revisions: ControllerRevision[], target: ControllerRevision,
): Promise<number | undefined> {
  const label = pod.metadata.labels?.[ControllerRevisionHashLabel];
  const from = revisions.find((r) => r.metadata.name === label || (label !== undefined && revisionHash(r.metadata.name!) === label));
  const inPlace = policy !== PodUpdatePolicy.ReCreate && from !== undefined && updater.canUpdateInPlace(from, target)
    && !(policy === PodUpdatePolicy.InPlaceIfPossible && claimTemplatesChanged(c, from, target));
  if (inPlace) return updateInPlace(c, updater, pod, from, target);
  if (policy === PodUpdatePolicy.InPlaceOnly) {
    throw new Error(`find Pod ${pod.metadata.name} update strategy is InPlaceOnly but can not update in-place`);
  }
  if (pod.metadata.labels?.[SpecifiedDeleteLabel] !== undefined) return undefined;
  try {
    const patched = await c.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { labels: { [SpecifiedDeleteLabel]: 'true' } } });
    c.podUpdates.expectUpdated(objectKey(pod), patched);
  } catch (e) {
    c.events.event(c.cs, 'Warning', 'FailedUpdatePodReCreate', `failed to patch pod specified-delete ${pod.metadata.name}: ${String(e)}`);
    throw e;
  }
  c.events.event(c.cs, 'Normal', 'SuccessfulUpdatePodReCreate', `successfully patch pod ${pod.metadata.name} specified-delete for update(revision ${target.metadata.name})`);
  return undefined;
}

/** The inPlaceUpdate hook decides first (docs/design/inplace-update.md §9); then docs/design/inplace-update.md §4 with lifecycle Updating. */
async function updateInPlace(c: PassContext, updater: InPlaceUpdater, pod: Pod, from: ControllerRevision, target: ControllerRevision): Promise<number | undefined> {
  const hook = c.cs.spec.lifecycle?.inPlaceUpdate;
  const markNotReady = hook?.markPodNotReady ?? false;
  switch (beforeInPlaceUpdate(pod, c.cs.spec.lifecycle, 'CloneSet')) {
    case 'enterPreparingUpdate': await movePodToState(c, pod, LifecycleState.PreparingUpdate, { markNotReady }); return undefined;
    case 'reenterPreparingUpdate': await movePodToState(c, pod, LifecycleState.PreparingUpdate, { markNotReady, handler: hook }); return undefined;
    case 'wait': return undefined;
    case 'refuse': throw new Error(`not allowed to in-place update pod ${pod.metadata.name} in state ${podLifecycleState(pod)}`);
    case 'start': break;
  }
  const graceSeconds = c.cs.spec.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
  const now = new Date(c.now);
  const key = objectKey(pod);
  // cloneset-ready-gate is writing this pod's True: its event brings the pass back (pass.ts readyGate)
  if (c.readyGate && !c.readyGate.take(key)) return undefined;
  let r: UpdateResult;
  try {
    r = await updater.update(pod, from, target, {
      graceSeconds, revisionLabels: podRevisionLabels(c),
      hooks: [(p) => {
        p.metadata.labels = { ...p.metadata.labels, [LifecycleStateLabel]: LifecycleState.Updating };
        p.metadata.annotations = { ...p.metadata.annotations, [LifecycleTimestampAnnotation]: rfc3339(now) };
      }],
      admit: c.gate('PodUnavailableBudgetUpdateGate') ? (p) => inPlaceUpdateAllowed(c.client, c.events, p, () => c.now) : undefined,
    });
    // expected before the key is let go, so cloneset-ready-gate never judges the pod on an older cache
    if (r.newResourceVersion) c.podUpdates.expectUpdated(key, { metadata: { resourceVersion: r.newResourceVersion } });
  } finally {
    c.readyGate?.release(key, true);
  }
  // the PUB refused: skip the pod, try again shortly (docs/design/podunavailablebudget.md §7)
  if (r.refused) return refusedUpdateRetryMs;
  if (r.error) {
    c.events.event(c.cs, 'Warning', 'FailedUpdatePodInPlace', `failed to update pod ${pod.metadata.name} in-place(revision ${target.metadata.name}): ${String(r.error)}`);
    throw r.error;
  }
  c.events.event(c.cs, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${pod.metadata.name} in-place(revision ${target.metadata.name})`);
  return r.requeueAfterMs;
}
