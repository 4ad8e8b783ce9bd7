/**
 * `priorityStrategy` update order (docs/design/cloneset.md §9, docs/design/advanced-statefulset.md §9): weight terms, or else
 * ordered label keys. The sort is stable, so pods the strategy cannot tell apart keep their order.
 */
import type { Pod } from '../../api/core/index.js';
import type { UpdatePriorityStrategy } from '../../api/kruise/workloads/schema-parts.js';
import { selectorFromLabelSelector, type LabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { labelsOf } from './pod-facts.js';

/** Sum of the weights of the terms whose selector matches; invalid selectors count for nothing. */
export function podWeight(strategy: UpdatePriorityStrategy, labels: Record<string, string>): number {
  let weight = 0;
  for (const term of strategy.weightPriority ?? []) {
    const selector = parseOrUndefined(term.matchSelector as MetaLabelSelector);
    if (selector?.matches(labels)) weight += term.weight;
  }
  return weight;
}

function parseOrUndefined(selector: MetaLabelSelector): LabelSelector | undefined {
  try {
    return selectorFromLabelSelector(selector);
  } catch {
    return undefined;
  }
}

/**
 * [index of the first listed key the pod carries, trailing integer of that label's value].
 * A pod with none of the keys gets level -1, so it sorts before every keyed pod (upstream quirk).
 */
export function podOrder(strategy: UpdatePriorityStrategy, labels: Record<string, string>): [number, bigint] {
  const terms = strategy.orderPriority ?? [];
  for (let i = 0; i < terms.length; i++) {
    const value = labels[terms[i].orderedKey];
    if (value !== undefined) return [i, trailingInteger(value)];
  }
  return [-1, 0n];
}

/** `sts-10` → 10; no trailing digits, or more than fits an int64, → 0. */
export function trailingInteger(value: string): bigint {
  const digits = /[0-9]+$/.exec(value)?.[0];
  if (!digits) return 0n;
  const n = BigInt(digits);
  return n > 9223372036854775807n ? 0n : n;
}

/** A stably sorted copy: higher weight first, or lower key level then larger trailing integer first. */
export function sortByPriority<P extends Pod>(pods: readonly P[], strategy: UpdatePriorityStrategy | undefined): P[] {
  if (!strategy) return [...pods];
  if (strategy.weightPriority?.length) {
    const weights = new Map(pods.map((p) => [p, podWeight(strategy, labelsOf(p))]));
    return [...pods].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
  if (strategy.orderPriority?.length) {
    const orders = new Map(pods.map((p) => [p, podOrder(strategy, labelsOf(p))]));
    return [...pods].sort((a, b) => {
      const [levelA, numA] = orders.get(a)!;
      const [levelB, numB] = orders.get(b)!;
      if (levelA !== levelB) return levelA - levelB;
      return numA === numB ? 0 : numA > numB ? -1 : 1;
    });
  }
  return [...pods];
}
