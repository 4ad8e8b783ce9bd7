/**
 * CloneSet status from scratch over the active owned pods (docs/design/cloneset.md §3), and whether it
 * differs from what is stored. Conditions are carried over (FailedScale/FailedUpdate are sticky);
 * Progressing follows progress.ts.
 */
import type { CloneSetCondition, CloneSetStatus } from '../../api/kruise/workloads/cloneset.js';
import { labelSelectorToString, type MetaLabelSelector } from '../../machinery/labels.js';
import { passNumbers } from './numbers.js';
import { progressingChanged, withProgressing } from './progress.js';
import { availability, isReady, isUpdated, type CloneSet } from './pods.js';
import type { Pod } from '../../api/core/index.js';

export interface StatusInput {
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  now: number;
  /** Error of this pass, recorded as a sticky condition. */
  failure?: { type: 'FailedScale' | 'FailedUpdate'; message: string };
}

export function calculateStatus(cs: CloneSet, pods: Pod[], input: StatusInput): { status: CloneSetStatus; requeueAfterMs?: number } {
  const minReady = cs.spec.minReadySeconds ?? 0;
  const s: CloneSetStatus = {
    observedGeneration: cs.metadata.generation,
    replicas: pods.length, readyReplicas: 0, availableReplicas: 0,
    updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0,
    expectedUpdatedReplicas: passNumbers(cs).replicas - passNumbers(cs).partition,
    updateRevision: input.updateRevision,
    currentRevision: input.currentRevision,
    collisionCount: input.collisionCount,
    labelSelector: labelSelectorToString(cs.spec.selector as MetaLabelSelector),
  };
  let requeueAfterMs: number | undefined;
  for (const pod of pods) {
    const updated = isUpdated(pod, input.updateRevision);
    const ready = isReady(pod);
    const { available, waitMs } = availability(pod, minReady, input.now);
    if (waitMs !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, waitMs);
    if (ready) s.readyReplicas++;
    if (available) s.availableReplicas++;
    if (updated) {
      s.updatedReplicas++;
      if (ready) s.updatedReadyReplicas++;
      if (available) s.updatedAvailableReplicas!++;
    }
  }
  const replicas = cs.spec.replicas ?? 1;
  if (s.updatedReplicas === s.replicas && s.replicas === replicas) s.currentRevision = input.updateRevision;
  const progress = withProgressing(cs, s, withFailure(cs.status?.conditions ?? [], input.failure, new Date(input.now)), input.now);
  if (progress.conditions.length > 0) s.conditions = progress.conditions;
  if (progress.requeueAfterMs !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, progress.requeueAfterMs);
  return { status: s, requeueAfterMs };
}

function withFailure(conditions: CloneSetCondition[], failure: StatusInput['failure'], now: Date): CloneSetCondition[] {
  if (!failure) return conditions;
  const time = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const next = { type: failure.type, status: 'True', message: failure.message, lastTransitionTime: time, lastUpdateTime: time } as CloneSetCondition;
  return [...conditions.filter((c) => c.type !== failure.type), next];
}

const counted = [
  'replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas', 'updatedReadyReplicas', 'updatedAvailableReplicas',
  'expectedUpdatedReplicas', 'observedGeneration', 'updateRevision', 'currentRevision', 'collisionCount', 'labelSelector',
] as const;

/**
 * Counted fields, generation, revisions, selector, and the Progressing condition's status or
 * reason force a write; FailedScale/FailedUpdate alone never do (docs/design/cloneset.md §11).
 */
export function statusChanged(old: CloneSetStatus | undefined, next: CloneSetStatus): boolean {
  if (!old) return true;
  return counted.some((k) => (old[k] ?? undefined) !== (next[k] ?? undefined)) || progressingChanged(old.conditions, next.conditions);
}
