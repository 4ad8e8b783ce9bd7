/**
 * The `Progressing` condition of a CloneSet (docs/design/cloneset.md §11): present only with a
 * progressDeadlineSeconds other than 2147483647; first matching rule wins (available, paused,
 * partition done, deadline exceeded, else progressing with a requeue at the deadline). A condition
 * set again with the same status and reason keeps its timestamps, so the deadline counts from
 * entering `CloneSetUpdated`.
 */
import { CloneSetProgressDeadlineDisabled, type CloneSetCondition, type CloneSetStatus } from '../../api/kruise/workloads/cloneset.js';
import type { CloneSet } from './pods.js';
import { rfc3339 } from '../../machinery/time.js';

export const ProgressingCondition = 'Progressing';
export const ProgressReason = {
  Available: 'CloneSetAvailable',
  Paused: 'CloneSetPaused',
  PartitionAvailable: 'ProgressPartitionAvailable',
  DeadlineExceeded: 'ProgressDeadlineExceeded',
  Updated: 'CloneSetUpdated',
} as const;

/** `next` replaces the condition of its type; same status+reason keeps the old one, same status keeps its transition time. */
export function setCondition(conditions: readonly CloneSetCondition[], next: CloneSetCondition): CloneSetCondition[] {
  const old = conditions.find((c) => c.type === next.type);
  if (old && old.status === next.status && old.reason === next.reason) return [...conditions];
  const merged = old && old.status === next.status ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
  return [...conditions.filter((c) => c.type !== next.type), merged];
}

function deadlineOf(cs: CloneSet): number | undefined {
  const d = cs.spec.progressDeadlineSeconds;
  return d === undefined || d === null || d === CloneSetProgressDeadlineDisabled ? undefined : d;
}

/**
 * The conditions after this pass's Progressing rule, and when to look again (the deadline of a
 * `CloneSetUpdated` condition). `status` holds this pass's counts; `conditions` the stored ones.
 */
export function withProgressing(
  cs: CloneSet, status: CloneSetStatus, conditions: readonly CloneSetCondition[], now: number,
): { conditions: CloneSetCondition[]; requeueAfterMs?: number } {
  const deadline = deadlineOf(cs);
  if (deadline === undefined) return { conditions: conditions.filter((c) => c.type !== ProgressingCondition) };
  const replicas = cs.spec.replicas ?? 1;
  const existing = conditions.find((c) => c.type === ProgressingCondition);
  const updated = status.updatedAvailableReplicas ?? 0;
  const make = (s: 'True' | 'False', reason: string, message: string): CloneSetCondition =>
    ({ type: ProgressingCondition, status: s, reason, message, lastUpdateTime: rfc3339(now), lastTransitionTime: rfc3339(now) });
  const expected = status.expectedUpdatedReplicas ?? replicas;
  const lastUpdate = Date.parse(existing?.lastUpdateTime ?? '');
  let next: CloneSetCondition;
  if (status.currentRevision === status.updateRevision && status.replicas === replicas && status.updatedReplicas === replicas && updated === replicas) {
    next = make('True', ProgressReason.Available, 'CloneSet is available');
  } else if (cs.spec.updateStrategy?.rollingUpdate?.paused) {
    next = make('True', ProgressReason.Paused, 'CloneSet is paused');
  } else if (expected < replicas && expected <= updated) {
    next = make('True', ProgressReason.PartitionAvailable, 'CloneSet has been paused due to partition ready');
  } else if (existing?.reason === ProgressReason.DeadlineExceeded
    || (existing?.reason === ProgressReason.Updated && !Number.isNaN(lastUpdate) && lastUpdate + deadline * 1000 <= now)) {
    next = make('False', ProgressReason.DeadlineExceeded, `CloneSet revision ${status.updateRevision} has timed out progressing`);
  } else {
    next = make('True', ProgressReason.Updated, 'CloneSet is progressing');
    const result = setCondition(conditions, next);
    const since = Date.parse(result.find((c) => c.type === ProgressingCondition)?.lastUpdateTime ?? '') || now;
    // a second past the deadline, as timestamps carry whole seconds
    return { conditions: result, requeueAfterMs: Math.max(since + deadline * 1000 - now, 0) + 1_000 };
  }
  return { conditions: setCondition(conditions, next) };
}

/** Whether the Progressing condition appeared, vanished, or changed status or reason (docs/design/cloneset.md §11: this forces a status write). */
export function progressingChanged(old: readonly CloneSetCondition[] | undefined, next: readonly CloneSetCondition[] | undefined): boolean {
  const a = old?.find((c) => c.type === ProgressingCondition);
  const b = next?.find((c) => c.type === ProgressingCondition);
  if (!a || !b) return a !== b;
  return a.status !== b.status || a.reason !== b.reason;
}
