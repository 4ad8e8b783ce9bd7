/**
 * `InPlaceUpdateReady` on pods that do not have the condition yet (new pods), written at the start
 * of every pass: the refresh of the update phase would do the same (docs/design/inplace-update.md §5 adds it True when
 * missing), but only in a pass whose scale phase wrote nothing, and a rollout by recreate or a
 * scale-up keeps the scale phase busy for many passes while the new pods wait un-Ready on the gate.
 */
import { objectKey } from '../../api/meta.js';
import { hasInPlaceReadinessGate, podCondition, type InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { isNotFound } from '../../machinery/errors.js';
import { forEachLimited } from '../../runtime/parallel.js';
import { podWriteConcurrency, type PassContext } from './pass.js';
import type { Pod } from '../../api/core/index.js';

export const lacksReadyCondition = (pod: Pod): boolean =>
  !pod.metadata.deletionTimestamp && hasInPlaceReadinessGate(pod) && !podCondition(pod, InPlaceUpdateReadyCondition);

/** Writes the condition on every cached pod lacking it whose refresh would write exactly that. */
export async function markNewPodsReady(c: PassContext, updater: InPlaceUpdater): Promise<void> {
  await forEachLimited(c.pods.filter(lacksReadyCondition), podWriteConcurrency, async (pod) => {
    const r = await updater.markReadyIfMissing(pod);
    if (r.error && !isNotFound(r.error)) throw r.error;
    if (r.pod) c.podUpdates.expectUpdated(objectKey(pod), r.pod);
  });
}
