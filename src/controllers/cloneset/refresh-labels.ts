/**
 * The lifecycle and label fixes of the refresh step (docs/design/cloneset.md §9): the state a pod
 * moves to without any update decision, and a missing or stale pod-template-hash. After an in-place
 * update they ride on the pods/status write that flips InPlaceUpdateReady back to True (withFix on
 * the copy being written); a pod with no flip in this pass gets them by movePodToState's patch.
 */
import { objectKey } from '../../api/meta.js';
import { PodTemplateHashLabel } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel, LifecycleState } from '../../api/kruise/workloads/labels.js';
import { Pods } from '../../api/resource-type.js';
import { isPodUpdateCompleted, revisionHash } from '../../control/inplaceupdate/index.js';
import {
  afterInPlaceDone, lifecycleStatePatch, podLifecycleState, readinessForState, refreshLifecycleState,
} from '../../control/lifecycle/index.js';
import { type PassContext } from './pass.js';
import { movePodToState } from './pod-state.js';
import type { Pod } from '../../api/core/index.js';

/** What the fix reads of a pass (cloneset-ready-gate builds it for one pod). */
export type LabelFixContext = Pick<PassContext, 'cs' | 'now' | 'isUpdated'>;

/** The state a pod should move to without any update decision (PreparingUpdate rolled back included). */
export function refreshedState(c: LabelFixContext, pod: Pod): LifecycleState | undefined {
  const lp = pod;
  const lifecycle = c.cs.spec.lifecycle;
  const state = refreshLifecycleState(lp, lifecycle, 'CloneSet', isPodUpdateCompleted(pod));
  if (state) return state;
  // waiting in PreparingUpdate while the template went back to this pod's revision
  if (podLifecycleState(lp) === LifecycleState.PreparingUpdate && c.isUpdated(pod)) return afterInPlaceDone(lp, lifecycle);
  return undefined;
}

interface LabelFix {
  state?: LifecycleState;
  extraLabels: Record<string, string>;
}

// Only moves towards Normal/Updated here (refreshedState), never away from available.
function labelFix(c: LabelFixContext, pod: Pod): LabelFix {
  const extraLabels: Record<string, string> = {};
  const revision = pod.metadata.labels?.[ControllerRevisionHashLabel];
  if (revision && pod.metadata.labels?.[PodTemplateHashLabel] !== revisionHash(revision)) extraLabels[PodTemplateHashLabel] = revisionHash(revision);
  return { state: refreshedState(c, pod), extraLabels };
}

/**
 * What refreshLabels would write for `pod`, applied to `next` (its copy about to be written through
 * pods/status): with markNotReady the KruisePodReady change of the state; the state label and
 * timestamp when the state moves or a label is fixed; the hash label.
 */
export function withLabelFix(c: LabelFixContext, pod: Pod, next: Pod, markNotReady: boolean): void {
  const { state, extraLabels } = labelFix(c, pod);
  const now = new Date(c.now);
  if (state && markNotReady) {
    const conditions = readinessForState(next, state, now);
    if (conditions) next.status = { ...next.status, conditions } as Pod['status'];
  }
  const hasExtra = Object.keys(extraLabels).length > 0;
  const moves = state !== undefined && (podLifecycleState(pod) !== state || hasExtra);
  const metadata = moves ? lifecycleStatePatch(state, now).metadata : { labels: {}, annotations: {} };
  next.metadata.labels = { ...next.metadata.labels, ...metadata.labels, ...extraLabels };
  next.metadata.annotations = { ...next.metadata.annotations, ...metadata.annotations };
}

/** The lifecycle state the pod should be in, plus a missing or stale pod-template-hash, by a patch; true when written. */
export async function refreshLabels(c: PassContext, pod: Pod, markNotReady: boolean): Promise<boolean> {
  const { state, extraLabels } = labelFix(c, pod);
  if (state) return movePodToState(c, pod, state, { markNotReady, extraLabels });
  if (Object.keys(extraLabels).length === 0) return false;
  c.podUpdates.expectUpdated(objectKey(pod), await c.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { labels: extraLabels } }));
  return true;
}
