/**
 * ASTS status computed afresh each pass (docs/design/advanced-statefulset.md §3) over the in-range and condemned pods,
 * the rolling-update completion rule, transient FailedCreatePod/FailedUpdatePod conditions, and
 * whether the stored status differs enough to be written.
 */
import { labelSelectorToString, type MetaLabelSelector } from '../../machinery/labels.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { availability, isCreated, isRunningAndReady, isTerminating, podRevision } from './pod-state.js';
import type { Pod } from '../../api/core/index.js';
import type { StatefulSet, StatefulSetStatus } from './types.js';

export type FailureType = 'FailedCreatePod' | 'FailedUpdatePod';
type Condition = NonNullable<StatefulSetStatus['conditions']>[number];

export interface StatusInput {
  pods: readonly (Pod | undefined)[];
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  now: number;
  /** Pods this pass deleted (they count as terminating). */
  deleted?: ReadonlySet<string>;
  failures?: ReadonlyMap<FailureType, string>;
}

export const minReadySecondsOf = (set: StatefulSet): number => set.spec.updateStrategy?.rollingUpdate?.minReadySeconds ?? 0;

export function calculateStatus(set: StatefulSet, input: StatusInput): { status: StatefulSetStatus; requeueAfterMs?: number } {
  const s: StatefulSetStatus = {
    observedGeneration: set.metadata.generation,
    replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0,
    updatedReadyReplicas: 0, updatedAvailableReplicas: 0,
    currentRevision: input.currentRevision, updateRevision: input.updateRevision,
    collisionCount: input.collisionCount,
    labelSelector: labelSelectorToString(set.spec.selector as MetaLabelSelector),
  };
  const minReady = minReadySecondsOf(set);
  let requeueAfterMs: number | undefined;
  for (const pod of input.pods) {
    if (!pod) continue;
    const terminating = isTerminating(pod) || !!input.deleted?.has(pod.metadata.name!);
    const created = isCreated(pod);
    const revision = podRevision(pod);
    if (created) s.replicas++;
    if (isRunningAndReady(pod)) {
      const { available, waitMs } = availability(pod, minReady, input.now);
      if (waitMs !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, waitMs);
      s.readyReplicas++;
      if (available) s.availableReplicas++;
      if (revision === input.updateRevision) {
        s.updatedReadyReplicas!++;
        if (available) s.updatedAvailableReplicas!++;
      }
    }
    if (created && !terminating) {
      if (revision === input.currentRevision) s.currentReplicas++;
      if (revision === input.updateRevision) s.updatedReplicas++;
    }
  }
  const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  if (rolling && s.updatedReplicas === s.replicas && s.readyReplicas === s.replicas) {
    s.currentReplicas = s.updatedReplicas;
    s.currentRevision = s.updateRevision;
  }
  const conditions = failureConditions(input.failures, input.now);
  if (conditions.length > 0) s.conditions = conditions;
  return { status: s, requeueAfterMs };
}

function failureConditions(failures: StatusInput['failures'], now: number): Condition[] {
  const time = new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
  // The schema helper's optional-field spread types lastUpdateTime as required; ASTS conditions have none.
  return [...(failures ?? new Map<FailureType, string>())].map(([type, message]) => ({ type, status: 'True', message, lastTransitionTime: time }) as Condition);
}

const compared = [
  'observedGeneration', 'replicas', 'readyReplicas', 'availableReplicas', 'currentReplicas', 'updatedReplicas',
  'updatedReadyReplicas', 'updatedAvailableReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'labelSelector', 'volumeClaims',
] as const;

/** Counts, revisions, selector, claims or the set of failure conditions (times ignored) changed. */
export function statusChanged(old: StatefulSetStatus | undefined, next: StatefulSetStatus): boolean {
  if (!old) return true;
  if (compared.some((k) => !deepEqual(old[k] ?? undefined, next[k] ?? undefined))) return true;
  const brief = (s: StatefulSetStatus) => (s.conditions ?? []).map((c) => `${c.type}/${c.status}/${c.message ?? ''}`).sort();
  return !deepEqual(brief(old), brief(next));
}
