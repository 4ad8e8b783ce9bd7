/**
 * One request per pod at a time (docs/design/container-recreate.md §4.1): a pod's unfinished
 * requests ordered Recreating before Pending before new, then oldest first; the first is worked on
 * and every other new one is told it is Pending.
 */
import { timeOf } from '../../machinery/time.js';
import type { CRR } from './status-writes.js';
import { byName } from '../../machinery/order.js';

const phaseWeight: Record<string, number> = { Completed: 1, Recreating: 2, Pending: 3 };
const weight = (crr: CRR) => phaseWeight[crr.status?.phase ?? ''] ?? 4;

export function byPhaseThenAge(a: CRR, b: CRR): number {
  return weight(a) - weight(b)
    || (timeOf(a.metadata.creationTimestamp) ?? 0) - (timeOf(b.metadata.creationTimestamp) ?? 0)
    || byName(a, b);
}

export const isOpen = (crr: CRR): boolean => !crr.metadata.deletionTimestamp && !crr.status?.completionTime;
