/**
 * The order CloneSet updates its candidate pods in (docs/design/cloneset.md §9): ActivePods order,
 * then the priority strategy (stable), then scatter, then PreparingUpdate pods first (stable).
 */
import type { Pod } from '../../api/core/index.js';
import { LifecycleState } from '../../api/kruise/workloads/labels.js';
import type { UpdatePriorityStrategy } from '../../api/kruise/workloads/schema-parts.js';
import { sortActivePods } from './active-pods.js';
import { lifecycleStateOf } from './pod-facts.js';
import { sortByPriority } from './priority.js';
import { sortByScatter, type UpdateScatterStrategy } from './scatter.js';

/** The ordering fields of a rolling update strategy (CloneSet `updateStrategy.rollingUpdate`). */
export interface UpdateOrderStrategy {
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterStrategy;
}

/** `pods` are the candidates; `allPods` (default: the candidates) are every pod of the workload, for scatter density. */
export function sortPodsToUpdate<P extends Pod>(
  pods: readonly P[], strategy: UpdateOrderStrategy | undefined, allPods: readonly Pod[] = pods,
): P[] {
  let order = sortActivePods(pods);
  if (strategy?.priorityStrategy) order = sortByPriority(order, strategy.priorityStrategy);
  if (strategy?.scatterStrategy) order = sortByScatter(order, strategy.scatterStrategy, allPods);
  const preparing = (p: P): number => (lifecycleStateOf(p) === LifecycleState.PreparingUpdate ? 0 : 1);
  return order.sort((a, b) => preparing(a) - preparing(b));
}
