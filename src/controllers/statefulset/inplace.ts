/**
 * Updating one pod in place under podUpdatePolicy InPlaceIfPossible/InPlaceOnly (docs/design/inplace-update.md
 * §1, §9): only when the diff between the pod's own revision and the update revision allows it;
 * the inPlaceUpdate hook first moves the pod to PreparingUpdate and waits; the update itself
 * writes lifecycle `Updating` (only on pods that carry a state label). InPlaceOnly with a change
 * that cannot be done in place is an error.
 */
import { inPlaceUpdateAllowed, PubUpdateGate, refusedUpdateRetryMs } from '../../control/pubcontrol/index.js';
import { objectKey } from '../../api/meta.js';
import {
  LifecycleStateLabel, LifecycleTimestampAnnotation, PodUpdatePolicy,
} from '../../api/kruise/workloads/labels.js';
import type { InPlaceUpdateOptions } from '../../control/inplaceupdate/index.js';
import { beforeInPlaceUpdate, inPlaceStartState, LifecycleState } from '../../control/lifecycle/index.js';
import { setLifecycleState } from './lifecycle-control.js';
import { requeueAfter, type PassContext } from './pass.js';
import { podRevision } from './pod-state.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Pod } from '../../api/core/index.js';

function updateOptions(c: PassContext): InPlaceUpdateOptions {
  const now = new Date(c.now);
  return {
    graceSeconds: c.set.spec.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    hooks: [(p) => {
      const state = inPlaceStartState(p, 'StatefulSet');
      if (!state) return;
      p.metadata.labels = { ...p.metadata.labels, [LifecycleStateLabel]: state };
      p.metadata.annotations = { ...p.metadata.annotations, [LifecycleTimestampAnnotation]: rfc3339(now) };
    }],
  };
}

/** Returns true when the pod is handled without recreating it (updated, or held by a hook). */
export async function updateInPlace(c: PassContext, pod: Pod): Promise<boolean> {
  const policy = c.set.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy ?? PodUpdatePolicy.ReCreate;
  if (policy !== PodUpdatePolicy.InPlaceIfPossible && policy !== PodUpdatePolicy.InPlaceOnly) return false;
  const from = c.revisions.find((r) => r.metadata.name === podRevision(pod));
  const options = updateOptions(c);
  if (!c.updater.canUpdateInPlace(from, c.update, options)) {
    if (policy !== PodUpdatePolicy.InPlaceOnly) return false;
    const message = `find Pod ${pod.metadata.name} update strategy is InPlaceOnly but can not update in-place`;
    c.events.event(c.set, 'Warning', 'FailedUpdatePodInPlace', message);
    throw new Error(message);
  }
  const hook = c.set.spec.lifecycle?.inPlaceUpdate;
  switch (beforeInPlaceUpdate(pod, c.set.spec.lifecycle, 'StatefulSet')) {
    case 'enterPreparingUpdate':
      await setLifecycleState(c, pod, LifecycleState.PreparingUpdate, !!hook?.markPodNotReady);
      return true;
    case 'reenterPreparingUpdate':
      await setLifecycleState(c, pod, LifecycleState.PreparingUpdate, !!hook?.markPodNotReady, hook);
      return true;
    case 'wait': case 'refuse':
      return true;
    default:
      return start(c, pod, from, options);
  }
}

async function start(c: PassContext, pod: Pod, from: Parameters<PassContext['updater']['update']>[1], options: InPlaceUpdateOptions): Promise<boolean> {
  const revision = c.update.metadata.name;
  const admit = c.gate(PubUpdateGate) ? (p: Pod) => inPlaceUpdateAllowed(c.client, c.events, p, () => c.now) : undefined;
  const r = await c.updater.update(pod, from, c.update, { ...options, admit });
  if (r.refused) {
    requeueAfter(c, refusedUpdateRetryMs); // the PUB refused: docs/design/podunavailablebudget.md §7
    return true;
  }
  if (r.error) {
    c.events.event(c.set, 'Warning', 'FailedUpdatePodInPlace', `failed to update pod ${pod.metadata.name} in-place(revision ${revision}): ${String(r.error)}`);
    throw r.error;
  }
  if (r.newResourceVersion) c.podWrites.expectUpdated(objectKey(pod), { metadata: { resourceVersion: r.newResourceVersion } });
  requeueAfter(c, r.requeueAfterMs);
  c.events.event(c.set, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${pod.metadata.name} in-place(revision ${revision})`);
  return r.inPlaceUpdate;
}
