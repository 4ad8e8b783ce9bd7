/**
 * Pure choices of the CloneSet scale phase (docs/design/cloneset.md §8): which PreparingDelete pods go
 * back to PreparingNormal when replicas grow again, and which chosen victims the delete budget
 * allows (unavailable ones always, available ones while `deleteReadyLimit` lasts).
 */
import { canCancelPreparingDelete } from '../../control/lifecycle/index.js';
import { isPreDeleting, isToDelete, type CloneSet } from './pods.js';
import type { Pod } from '../../api/core/index.js';

/** Step 1: up to `R − len(pods) + #(toDelete ∪ preDeleting)` PreparingDelete pods that are not toDelete. */
export function podsToCancelDelete(cs: CloneSet, pods: readonly Pod[]): Pod[] {
  const planned = pods.filter((p) => isToDelete(p, cs) || isPreDeleting(p)).length;
  let room = (cs.spec.replicas ?? 1) - pods.length + planned;
  const out: Pod[] = [];
  for (const pod of pods) {
    if (room <= 0) break;
    if (!isPreDeleting(pod) || isToDelete(pod, cs) || !canCancelPreparingDelete(pod, cs.spec.lifecycle, 'CloneSet')) continue;
    out.push(pod);
    room--;
  }
  return out;
}

/** The victims the budget allows, in order; `budget.left` is consumed. */
export function withinDeleteBudget(victims: readonly Pod[], isAvailable: (pod: Pod) => boolean, budget: { left: number }): Pod[] {
  const out: Pod[] = [];
  for (const pod of victims) {
    if (isAvailable(pod)) {
      if (budget.left <= 0) continue;
      budget.left--;
    }
    out.push(pod);
  }
  return out;
}
