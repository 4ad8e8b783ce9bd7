/**
 * DaemonSet status from scratch: per node that should run the daemon, whether it has a pod and
 * whether its oldest pod is ready, available and updated; pods on nodes where the daemon should not
 * run are misscheduled. Finished pods being deleted do not count.
 */
import { isPodAvailable, isPodReady, msUntilAvailable } from '../../../control/podutil/index.js';
import type { NodePods } from './manage-plan.js';
import { isPodUpdated } from './types.js';
import type { Pod, DaemonSet, DaemonSetStatus } from '../../../api/core/index.js';
import { byCreation } from '../../../machinery/order.js';

const counted = (p: Pod) => !(p.metadata.deletionTimestamp && (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed'));
const phaseRank = (p: Pod) => (p.status?.phase === 'Running' ? 0 : 1);
const oldestRunningFirst = (a: Pod, b: Pod) => byCreation(a, b) || phaseRank(a) - phaseRank(b);

export function computeStatus(ds: DaemonSet, views: NodePods[], hash: string, collisionCount: number, now: number): DaemonSetStatus {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const s = { desired: 0, current: 0, misscheduled: 0, ready: 0, available: 0, updated: 0 };
  for (const { placement, pods } of views) {
    const daemonPods = pods.filter(counted).sort(oldestRunningFirst);
    if (!placement.shouldRun) {
      if (daemonPods.length > 0) s.misscheduled++;
      continue;
    }
    s.desired++;
    const pod = daemonPods[0];
    if (!pod) continue;
    s.current++;
    if (isPodReady(pod)) {
      s.ready++;
      if (isPodAvailable(pod, minReady, now)) s.available++;
    }
    if (isPodUpdated(pod, hash, ds)) s.updated++;
  }
  const status: DaemonSetStatus = {
    ...ds.status,
    currentNumberScheduled: s.current, numberMisscheduled: s.misscheduled, desiredNumberScheduled: s.desired,
    numberReady: s.ready, observedGeneration: ds.metadata.generation, updatedNumberScheduled: s.updated,
    numberAvailable: s.available, numberUnavailable: s.desired - s.available,
  };
  if (collisionCount > 0 || ds.status?.collisionCount !== undefined) status.collisionCount = collisionCount;
  return status;
}

/** When the next ready daemon pod becomes available (minReadySeconds), to requeue for it. */
export function nextAvailableMs(ds: DaemonSet, views: NodePods[], now: number): number | undefined {
  let next: number | undefined;
  for (const { pods } of views) {
    for (const pod of pods) {
      const wait = msUntilAvailable(pod, ds.spec?.minReadySeconds ?? 0, now);
      if (wait > 0) next = Math.min(next ?? wait, wait);
    }
  }
  return next;
}
