/**
 * The FailedScheduling message in kube-scheduler's format:
 * `0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.
 * preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption
 * victims found for incoming pod.` Reasons are counted over nodes and sorted as strings, as upstream.
 * We never preempt, so every node a preemption could have helped reports that no victim was found.
 */
import type { FilterStatus } from './filters.js';
import { REASON_AFFINITY, REASON_ANTI_AFFINITY, REASON_EXISTING_ANTI_AFFINITY } from './pod-affinity-filter.js';
import { REASON_SPREAD } from './topology-spread.js';

export const NO_NODES_MESSAGE = 'no nodes available to schedule pods';
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';

function histogram(values: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).sort().join(', ');
}

/** `statuses` holds one entry per node that failed a filter. */
export function fitErrorMessage(numNodes: number, statuses: Iterable<FilterStatus>): string {
  if (numNodes === 0) return NO_NODES_MESSAGE;
  const list = [...statuses];
  const reasons = histogram(list.flatMap((s) => s.reasons));
  const preemption = histogram(list.map((s) => (s.unresolvable ? PREEMPTION_NOT_HELPFUL : NO_PREEMPTION_VICTIMS)));
  return `0/${numNodes} nodes are available: ${reasons}. preemption: 0/${numNodes} nodes are available: ${preemption}.`;
}

const POD_SENSITIVE = new Set([REASON_AFFINITY, REASON_ANTI_AFFINITY, REASON_EXISTING_ANTI_AFFINITY, REASON_SPREAD]);

/** Whether some node failed on a check that a pod added elsewhere could change. */
export function podSensitive(statuses: Iterable<FilterStatus>): boolean {
  for (const s of statuses) for (const r of s.reasons) if (POD_SENSITIVE.has(r)) return true;
  return false;
}

/** A PreFilter rejection (unbound immediate claims...): its message, then every node unhelpful for preemption. */
export function preFilterMessage(numNodes: number, message: string): string {
  if (numNodes === 0) return NO_NODES_MESSAGE;
  return `0/${numNodes} nodes are available: ${message}. preemption: 0/${numNodes} nodes are available: ${numNodes} ${PREEMPTION_NOT_HELPFUL}.`;
}
