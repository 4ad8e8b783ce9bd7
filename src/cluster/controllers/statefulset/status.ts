/**
 * StatefulSet status, computed from scratch each sync: counts over the pods that exist (created
 * means the pod has a phase), revisions, and the rolling update's completion, when every pod is
 * updated and ready, making the update revision current.
 */
import { isPodAvailable, msUntilAvailable } from '../../../control/podutil/index.js';
import { podRevision } from './identity.js';
import { isRunningAndReady } from './plan.js';
import type { Pod, StatefulSet, StatefulSetStatus } from '../../../api/core/index.js';

export interface StatusInput {
  set: StatefulSet;
  pods: Pod[];
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  now: number;
}

export function computeStatus(s: StatusInput): StatefulSetStatus {
  const minReady = s.set.spec?.minReadySeconds ?? 0;
  const status: StatefulSetStatus = {
    observedGeneration: s.set.metadata.generation,
    replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0, availableReplicas: 0,
    currentRevision: s.currentRevision, updateRevision: s.updateRevision, collisionCount: s.collisionCount,
  };
  for (const pod of s.pods) {
    const created = Boolean(pod.status?.phase);
    if (created) status.replicas!++;
    if (isRunningAndReady(pod)) {
      status.readyReplicas!++;
      if (isPodAvailable(pod, minReady, s.now)) status.availableReplicas!++;
    }
    if (created && !pod.metadata.deletionTimestamp) {
      if (podRevision(pod) === s.currentRevision) status.currentReplicas!++;
      if (podRevision(pod) === s.updateRevision) status.updatedReplicas!++;
    }
  }
  const rolling = (s.set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  if (rolling && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentRevision = status.updateRevision;
    status.currentReplicas = status.updatedReplicas;
  }
  return { ...s.set.status, ...status };
}

/** When the next ready pod becomes available (minReadySeconds), to requeue for it. */
export function nextAvailableMs(set: StatefulSet, pods: Pod[], now: number): number | undefined {
  const minReady = set.spec?.minReadySeconds ?? 0;
  let next: number | undefined;
  for (const pod of pods) {
    const wait = msUntilAvailable(pod, minReady, now);
    if (wait > 0) next = Math.min(next ?? wait, wait);
  }
  return next;
}
