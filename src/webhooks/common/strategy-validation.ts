/**
 * Checks shared by the Kruise workload webhooks (and SidecarSet): update priority and scatter
 * strategies (pub.UpdatePriorityStrategy.FieldsValidation); int-or-percent resolution is re-exported.
 */
import { field, type FieldError, fieldErrorMessage } from '../../machinery/errors.js';
import { validateLabelSelector, isEmptySelector } from '../../machinery/validation/label-selector.js';
import { isObject, items, str, type Json } from '../../machinery/json.js';

export { scaledIntOrPercent, type Scaled } from '../../machinery/int-or-percent.js';

/** The number an int-or-percent stands for when compared with zero ("10%" is 10, junk is 0). */
export function intOrPercentNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  const match = /^(\d+)%$/.exec(value) ?? /^([-+]?\d+)$/.exec(value);
  return match ? Number.parseInt(match[1], 10) : 0;
}

/** The first problem of an update priority strategy, as upstream reports it (Required at `path`). */
export function validatePriorityStrategy(strategy: unknown, path: string): FieldError[] {
  const problem = priorityStrategyProblem(strategy);
  return problem ? [field.required(path, problem)] : [];
}

function priorityStrategyProblem(strategy: unknown): string | undefined {
  if (!isObject(strategy)) return undefined;
  const weights = items(strategy, 'weightPriority');
  const orders = items(strategy, 'orderPriority');
  if (weights.length > 0 && orders.length > 0) return 'only one of weightPriority and orderPriority can be used';
  for (const w of weights) {
    const weight = typeof w.weight === 'number' ? w.weight : 0;
    if (weight < 0 || weight > 100) return 'weight must be valid number in the range 1-100';
    if (!isObject(w.matchSelector) || isEmptySelector(w.matchSelector)) return 'selector can not be empty';
    const selectorErrs = validateLabelSelector(w.matchSelector, 'matchSelector');
    if (selectorErrs.length > 0) return `invalid selector ${fieldErrorMessage(selectorErrs[0])}`;
  }
  for (const o of orders) if (!str(o, 'orderedKey')) return 'order key can not be empty';
  return undefined;
}

/** Scatter terms: keys non-empty, no duplicate key/value pair (Required at `path`). */
export function validateScatterStrategy(terms: unknown, path: string): FieldError[] {
  if (!Array.isArray(terms)) return [];
  const seen = new Set<string>();
  for (const term of terms.filter(isObject) as Json[]) {
    const key = str(term, 'key');
    const value = str(term, 'value');
    if (!key) return [field.required(path, 'key should not be empty')];
    const id = `${key}:${value}`;
    if (seen.has(id)) return [field.required(path, `duplicated key=${key} value=${value}`)];
    seen.add(id);
  }
  return [];
}
