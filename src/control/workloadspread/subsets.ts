/**
 * Subset arithmetic shared by the webhook and the controller (docs/design/workloadspread.md §3):
 * maxReplicas resolved against the workload's replicas (percent rounds up; nil = −1, unbounded),
 * the initial subset statuses and the Schedulable condition.
 */
import type { WorkloadSpread } from '../../api/kruise/workloads/workload-spread.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import { SchedulableCondition } from './keys.js';

/** A WorkloadSpread with its spec (every admitted one has it). */
export type Spread = WorkloadSpread & { spec: NonNullable<WorkloadSpread['spec']> };
export type Subset = Spread['spec']['subsets'][number];
export type SubsetStatus = NonNullable<NonNullable<WorkloadSpread['status']>['subsetStatuses']>[number];
export type SubsetCondition = NonNullable<SubsetStatus['conditions']>[number];

/** −1 when unbounded. */
export function maxReplicasOf(subset: Subset, workloadReplicas: number): number {
  if (subset.maxReplicas === undefined || subset.maxReplicas === null) return -1;
  return Math.max(0, scaledValue(subset.maxReplicas, workloadReplicas, true));
}

export function initialSubsetStatuses(ws: Spread, workloadReplicas: number): SubsetStatus[] {
  return ws.spec.subsets.map((subset) => ({ name: subset.name, replicas: 0, missingReplicas: maxReplicasOf(subset, workloadReplicas) }));
}

export function isUnschedulable(status: SubsetStatus | undefined): boolean {
  return status?.conditions?.some((c) => c.type === SchedulableCondition && c.status === 'False') ?? false;
}

/** The subset names whose aggregate status says Schedulable=False. */
export function unschedulableSubsets(ws: Spread): Set<string> {
  return new Set((ws.status?.subsetStatuses ?? []).filter(isUnschedulable).map((s) => s.name));
}

export function isAdaptive(ws: Spread): boolean {
  return ws.spec.scheduleStrategy?.type === 'Adaptive' && (ws.spec.scheduleStrategy.adaptive?.rescheduleCriticalSeconds ?? 0) > 0;
}
