/**
 * DaemonSet status from scratch (docs/design/advanced-daemonset.md §3): per node that should run the daemon, whether
 * it has a pod and whether its oldest pod is ready, available and carries the current hash; pods on
 * other nodes are misscheduled. Finished pods already being deleted do not count.
 * `observedGeneration` moves only after a full pass; `updateRevision` is the bare hash.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import type { ClusterView } from './node-view.js';
import { availability, isFinished, isPodReady, isPodUpdated, oldestFirst } from './pods.js';
import type { Pod } from '../../api/core/index.js';
import type { DaemonSet, DaemonSetStatus } from './types.js';

const counted = (p: Pod): boolean => !(p.metadata.deletionTimestamp && isFinished(p));

export interface StatusInput {
  hash: string;
  collisionCount: number;
  now: number;
  /** The pass ran to the end: observedGeneration may move to the current generation. */
  fullPass: boolean;
}

export function computeStatus(ds: DaemonSet, view: ClusterView, input: StatusInput): DaemonSetStatus {
  const minReady = ds.spec.minReadySeconds ?? 0;
  const n = { desired: 0, current: 0, misscheduled: 0, ready: 0, available: 0, updated: 0 };
  for (const { placement, pods } of view.nodes) {
    const daemonPods = pods.filter(counted).sort(oldestFirst);
    if (!placement.shouldRun) {
      if (daemonPods.length > 0) n.misscheduled++;
      continue;
    }
    n.desired++;
    const pod = daemonPods[0];
    if (!pod) continue;
    n.current++;
    if (isPodReady(pod)) {
      n.ready++;
      if (availability(pod, minReady, input.now).available) n.available++;
    }
    if (isPodUpdated(pod, input.hash, ds)) n.updated++;
  }
  const old = ds.status;
  const status: DaemonSetStatus = {
    currentNumberScheduled: n.current, numberMisscheduled: n.misscheduled, desiredNumberScheduled: n.desired,
    numberReady: n.ready, updatedNumberScheduled: n.updated, numberAvailable: n.available, numberUnavailable: n.desired - n.available,
    updateRevision: input.hash,
  };
  const generation = input.fullPass ? ds.metadata.generation : old?.observedGeneration;
  if (generation !== undefined) status.observedGeneration = generation;
  if (input.collisionCount > 0 || old?.collisionCount !== undefined) status.collisionCount = input.collisionCount;
  if (old?.conditions) status.conditions = old.conditions;
  return status;
}

export const statusChanged = (old: DaemonSetStatus | undefined, next: DaemonSetStatus): boolean => !deepEqual(old ?? {}, next);

/** How long until the next ready pod becomes available (minReadySeconds), to look again then. */
export function nextAvailableMs(ds: DaemonSet, view: ClusterView, now: number): number | undefined {
  const minReady = ds.spec.minReadySeconds ?? 0;
  if (minReady <= 0) return undefined;
  let next: number | undefined;
  for (const { pods } of view.nodes) {
    for (const pod of pods) {
      const wait = availability(pod, minReady, now).waitMs;
      if (wait !== undefined && isPodReady(pod)) next = Math.min(next ?? wait, wait);
    }
  }
  return next;
}
