/**
 * Adaptive scheduling (docs/design/workloadspread.md §8): with rescheduleCriticalSeconds > 0, pods
 * of a non-last subset left unschedulable longer than that are deleted (their replacements skip
 * the subset) and the subset becomes Schedulable=False/PodUnschedulable; after the recovery time
 * it is True/Sufficient again. The last subset is always schedulable.
 */
import type { Pod } from '../../api/core/index.js';
import { isAdaptive, SchedulableCondition, type Spread, type SubsetCondition } from '../../control/workloadspread/index.js';
import { rfc3339, timeOf } from '../../machinery/time.js';

export interface AdaptivePlan {
  toDelete: Pod[];
  /** Conditions per subset name (absent: no conditions). */
  conditions: Map<string, SubsetCondition[]>;
  recovered: string[];
  nextCheckMs?: number;
}

export function isUnschedulablePending(pod: Pod): boolean {
  if (pod.status?.phase !== 'Pending' || pod.spec.nodeName || pod.metadata.deletionTimestamp) return false;
  const scheduled = pod.status.conditions?.find((c) => c.type === 'PodScheduled');
  return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable';
}

const condition = (status: 'True' | 'False', reason: string, message: string, now: number): SubsetCondition =>
  ({ type: SchedulableCondition, status, reason, message, lastTransitionTime: rfc3339(now) });

export function planAdaptive(ws: Spread, bySubset: Map<string, Pod[]>, now: number, recoverAfterMs: number): AdaptivePlan {
  const plan: AdaptivePlan = { toDelete: [], conditions: new Map(), recovered: [] };
  if (!isAdaptive(ws)) return plan;
  const thresholdMs = ws.spec.scheduleStrategy!.adaptive!.rescheduleCriticalSeconds! * 1000;
  const wake = (at: number) => { plan.nextCheckMs = Math.min(plan.nextCheckMs ?? Infinity, Math.max(0, at - now) + 1); };
  const old = new Map((ws.status?.subsetStatuses ?? []).map((s) => [s.name, s.conditions?.find((c) => c.type === SchedulableCondition)]));
  const last = ws.spec.subsets.length - 1;
  ws.spec.subsets.forEach((subset, i) => {
    const previous = old.get(subset.name);
    if (i === last) {
      plan.conditions.set(subset.name, [previous?.status === 'True' ? previous : condition('True', 'Sufficient', '', now)]);
      return;
    }
    let stuck = false;
    for (const pod of bySubset.get(subset.name) ?? []) {
      if (!isUnschedulablePending(pod)) continue;
      const due = (timeOf(pod.metadata.creationTimestamp) ?? now) + thresholdMs;
      if (due <= now) {
        plan.toDelete.push(pod);
        stuck = true;
      } else wake(due);
    }
    let next = previous ?? condition('True', 'Sufficient', '', now);
    if (stuck) {
      if (next.status !== 'False') next = condition('False', 'PodUnschedulable', `Some pods of subset ${subset.name} were unschedulable for more than ${thresholdMs / 1000} seconds`, now);
    } else if (next.status === 'False') {
      const recoverAt = (timeOf(next.lastTransitionTime) ?? now) + recoverAfterMs;
      if (recoverAt <= now) {
        next = condition('True', 'Sufficient', '', now);
        plan.recovered.push(subset.name);
      } else wake(recoverAt);
    }
    plan.conditions.set(subset.name, [next]);
  });
  return plan;
}
