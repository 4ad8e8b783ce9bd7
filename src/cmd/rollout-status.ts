/**
 * What `kruise rollout status` (and `kubectl kruise rollout status`) says about a Kruise workload,
 * in kubectl's words: a message, whether the rollout is done, or an error when it cannot finish.
 * Like kubectl's Deployment viewer, a CloneSet counts as rolled out only when every replica is
 * updated and available, a partition counts as done once its updated pods are there, and a
 * Progressing condition with ProgressDeadlineExceeded is a failure.
 */
import type { KObject } from '../api/meta.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, CloneSets } from '../api/kruise/resource-types.js';
import type { ResourceType } from '../api/resource-type.js';

export interface RolloutStatus {
  message: string;
  done: boolean;
}

interface Workload extends KObject {
  spec?: {
    replicas?: number;
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number | string; paused?: boolean } };
  };
  status?: Record<string, unknown> & { observedGeneration?: number; conditions?: { type: string; reason?: string }[] };
}

/** Kinds and the names a user may type for them (CRD short names, plural, singular, full name). */
export const rolloutKinds: { type: ResourceType; names: string[]; status(obj: Workload): RolloutStatus }[] = [
  { type: CloneSets, names: ['clone', 'cloneset', 'clonesets', 'cloneset.apps.kruise.io', 'clonesets.apps.kruise.io'], status: cloneSetStatus },
  { type: AdvancedStatefulSets, names: ['asts', 'statefulset.apps.kruise.io', 'statefulsets.apps.kruise.io'], status: statefulSetStatus },
  { type: AdvancedDaemonSets, names: ['ads', 'daemon', 'daemonset.apps.kruise.io', 'daemonsets.apps.kruise.io'], status: daemonSetStatus },
];

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function observed(obj: Workload): boolean {
  const g = obj.status?.observedGeneration ?? 0;
  return g > 0 && (obj.metadata.generation ?? 0) <= g;
}

/** Partition as a pod count; a percent is rounded as the kind's controller rounds it. */
function partitionCount(partition: number | string | undefined, replicas: number, round: (x: number) => number): number {
  if (partition === undefined) return 0;
  if (typeof partition === 'number') return Math.min(partition, replicas);
  return Math.min(round((replicas * Number.parseFloat(partition)) / 100), replicas);
}

export function cloneSetStatus(cs: Workload): RolloutStatus {
  const name = cs.metadata.name;
  if (!observed(cs)) return { message: 'Waiting for CloneSet spec update to be observed...', done: false };
  const progressing = cs.status?.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') throw new Error(`CloneSet "${name}" exceeded its progress deadline`);
  const replicas = cs.spec?.replicas ?? 1;
  const s = cs.status!;
  const updated = num(s.updatedReplicas);
  const strategy = cs.spec?.updateStrategy;
  if (strategy?.type !== 'OnDelete' && partitionCount(strategy?.rollingUpdate?.partition, replicas, Math.ceil) > 0) {
    const expected = num(s.expectedUpdatedReplicas);
    if (updated < expected) return { message: `Waiting for partitioned roll out to finish: ${updated} out of ${expected} new pods have been updated...`, done: false };
    const available = num(s.updatedAvailableReplicas);
    if (available < expected) return { message: `Waiting for partitioned roll out to finish: ${available} of ${expected} updated pods are available...`, done: false };
    return { message: `partitioned roll out complete: ${updated} new pods have been updated...`, done: true };
  }
  if (updated < replicas) return { message: `Waiting for CloneSet "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`, done: false };
  if (num(s.replicas) > updated) return { message: `Waiting for CloneSet "${name}" rollout to finish: ${num(s.replicas) - updated} old replicas are pending termination...`, done: false };
  if (num(s.updatedAvailableReplicas) < updated) {
    return { message: `Waiting for CloneSet "${name}" rollout to finish: ${num(s.updatedAvailableReplicas)} of ${updated} updated replicas are available...`, done: false };
  }
  return { message: `CloneSet rolling update complete ${num(s.availableReplicas)} pods at revision ${String(s.updateRevision)}...`, done: true };
}

export function statefulSetStatus(sts: Workload): RolloutStatus {
  if (sts.spec?.updateStrategy?.type === 'OnDelete') throw new Error('rollout status is only available for RollingUpdate strategy type');
  if (!observed(sts)) return { message: 'Waiting for Advanced StatefulSet spec update to be observed...', done: false };
  const replicas = sts.spec?.replicas ?? 1;
  const s = sts.status!;
  if (num(s.readyReplicas) < replicas) return { message: `Waiting for ${replicas - num(s.readyReplicas)} pods to be ready...`, done: false };
  const partition = sts.spec?.updateStrategy?.rollingUpdate?.partition;
  if (typeof partition === 'number' && partition > 0) {
    if (num(s.updatedReplicas) < replicas - partition) {
      return { message: `Waiting for partitioned roll out to finish: ${num(s.updatedReplicas)} out of ${replicas - partition} new pods have been updated...`, done: false };
    }
    return { message: `partitioned roll out complete: ${num(s.updatedReplicas)} new pods have been updated...`, done: true };
  }
  if (s.updateRevision !== s.currentRevision) {
    return { message: `waiting for statefulset rolling update to complete ${num(s.updatedReplicas)} pods at revision ${String(s.updateRevision)}...`, done: false };
  }
  return { message: `Advanced StatefulSet rolling update complete ${num(s.availableReplicas)} pods at revision ${String(s.updateRevision)}...`, done: true };
}

export function daemonSetStatus(ds: Workload): RolloutStatus {
  if (ds.spec?.updateStrategy?.type === 'OnDelete') throw new Error('rollout status is only available for RollingUpdate strategy type');
  const name = ds.metadata.name;
  if (!observed(ds)) return { message: 'Waiting for daemon set spec update to be observed...', done: false };
  const s = ds.status!;
  const desired = num(s.desiredNumberScheduled);
  const expected = desired - partitionCount(ds.spec?.updateStrategy?.rollingUpdate?.partition, desired, Math.floor);
  if (num(s.updatedNumberScheduled) < expected) {
    const what = expected < desired ? 'partitioned roll out' : `daemon set "${name}" rollout`;
    return { message: `Waiting for ${what} to finish: ${num(s.updatedNumberScheduled)} out of ${expected} new pods have been updated...`, done: false };
  }
  if (expected < desired) return { message: `partitioned roll out complete: ${num(s.updatedNumberScheduled)} new pods have been updated...`, done: true };
  if (num(s.numberAvailable) < desired) {
    return { message: `Waiting for daemon set "${name}" rollout to finish: ${num(s.numberAvailable)} of ${desired} updated pods are available...`, done: false };
  }
  return { message: `daemon set "${name}" successfully rolled out`, done: true };
}
