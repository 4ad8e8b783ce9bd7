/**
 * In-place updates of daemon pods (docs/design/inplace-update.md §1, docs/design/advanced-daemonset.md §9; the refresh step,
 * docs/design/advanced-daemonset.md §8, is in refresh.ts): under InPlaceIfPossible, update the old pods a rolling step chose in place
 * when they carry the InPlaceUpdateReady gate and the change from their own revision allows it
 * (revision label = bare hash, no lifecycle label); the rest are returned to be recreated.
 */
import { objectKey } from '../../api/meta.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import type { InPlaceUpdateOptions, InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { shortHash } from '../../control/revision/index.js';
import { burstReplicas } from './budget.js';
import { messageOf, type PassContext } from './pass.js';
import { hasInPlaceGate } from './pods.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

/** The bare hash a revision stands for (its controller-revision-hash label). */
export const revisionHashOf = (r: ControllerRevision): string =>
  r.metadata.labels?.[ControllerRevisionHashLabel] ?? shortHash(r.metadata.name ?? '');

const options: InPlaceUpdateOptions = { getRevision: (r) => revisionHashOf(r as ControllerRevision) };

function ownRevision(pod: Pod, revisions: readonly ControllerRevision[]): ControllerRevision | undefined {
  const hash = pod.metadata.labels?.[ControllerRevisionHashLabel];
  return hash === undefined ? undefined : revisions.find((r) => revisionHashOf(r) === hash);
}

/** Updates what it can in place (at most burstReplicas); returns the pods to delete instead. */
export async function updatePodsInPlace(
  c: PassContext, updater: InPlaceUpdater, pods: Pod[], revisions: readonly ControllerRevision[], target: ControllerRevision,
): Promise<Pod[]> {
  const toDelete: Pod[] = [];
  const inPlace: { pod: Pod; from: ControllerRevision }[] = [];
  for (const pod of pods) {
    const from = hasInPlaceGate(pod) ? ownRevision(pod, revisions) : undefined;
    if (from && updater.canUpdateInPlace(from, target, options)) inPlace.push({ pod, from });
    else toDelete.push(pod);
  }
  const errors: unknown[] = [];
  await Promise.all(inPlace.slice(0, burstReplicas(c.ds)).map(async ({ pod, from }) => {
    const r = await updater.update(pod, from, target, options);
    if (!r.inPlaceUpdate) {
      toDelete.push(pod);
    } else if (r.error) {
      c.events.event(c.ds, 'Warning', 'FailedUpdatePodInPlace', `failed to update pod ${pod.metadata.name} in-place(revision ${target.metadata.name}): ${messageOf(r.error)}`);
      errors.push(r.error);
    } else {
      if (r.newResourceVersion) c.podUpdates.expectUpdated(objectKey(pod), { metadata: { resourceVersion: r.newResourceVersion } });
      c.events.event(c.ds, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${pod.metadata.name} in-place`);
    }
  }));
  if (errors.length > 0) throw errors[0];
  return toDelete;
}
