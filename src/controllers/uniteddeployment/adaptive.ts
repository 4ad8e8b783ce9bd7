/**
 * Adaptive scheduling of a UnitedDeployment (docs/design/uniteddeployment.md §4): a subset whose
 * pods stay unschedulable longer than rescheduleCriticalSeconds (while it has fewer ready pods than
 * allocated) becomes Schedulable=False (reason `reschedule`) for unschedulableDuration, then True
 * (reason `recover`). While unschedulable the allocator keeps only its ready pods there.
 */
import type { Pod } from '../../api/core/index.js';
import type { UnitedDeployment } from '../../api/kruise/workloads/united-deployment.js';
import { rfc3339, timeOf } from '../../machinery/time.js';

export const SchedulableCondition = 'Schedulable';

export interface SubsetCondition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }

export interface SubsetSchedulable {
  unschedulable: boolean;
  condition?: SubsetCondition;
  /** Milliseconds until this subset's state may change. */
  wakeMs?: number;
}

export function isAdaptive(ud: UnitedDeployment): boolean {
  return ud.spec?.topology?.scheduleStrategy?.type === 'Adaptive';
}

function unschedulableSince(pod: Pod): boolean {
  if (pod.status?.phase !== 'Pending' || pod.spec.nodeName || pod.metadata.deletionTimestamp) return false;
  const c = pod.status.conditions?.find((x) => x.type === 'PodScheduled');
  return c?.status === 'False' && c.reason === 'Unschedulable';
}

export function subsetSchedulable(ud: UnitedDeployment, old: SubsetCondition | undefined, pods: readonly Pod[], ready: number, allocated: number, now: number): SubsetSchedulable {
  const adaptive = ud.spec!.topology!.scheduleStrategy!.adaptive;
  const criticalMs = (adaptive?.rescheduleCriticalSeconds ?? 30) * 1000;
  const durationMs = (adaptive?.unschedulableDuration ?? 300) * 1000;
  if (old?.status === 'False') {
    const until = (timeOf(old.lastTransitionTime) ?? now) + durationMs;
    if (until > now) return { unschedulable: true, condition: old, wakeMs: until - now + 1 };
    return { unschedulable: false, condition: { type: SchedulableCondition, status: 'True', reason: 'recover', message: '', lastTransitionTime: rfc3339(now) } };
  }
  let wakeMs: number | undefined;
  if (ready < allocated) {
    for (const pod of pods) {
      if (!unschedulableSince(pod)) continue;
      const due = (timeOf(pod.metadata.creationTimestamp) ?? now) + criticalMs;
      if (due <= now) {
        return { unschedulable: true, condition: { type: SchedulableCondition, status: 'False', reason: 'reschedule', message: 'timeout pending pods found', lastTransitionTime: rfc3339(now) } };
      }
      wakeMs = Math.min(wakeMs ?? Infinity, due - now + 1);
    }
  }
  return { unschedulable: false, ...(old && { condition: old }), ...(wakeMs !== undefined && { wakeMs }) };
}
