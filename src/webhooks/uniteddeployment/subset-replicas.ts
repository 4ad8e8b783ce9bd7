/**
 * UnitedDeployment replica settings (docs/design/webhooks.md §13): subset `replicas` against min/max,
 * percents of spec.replicas (half-up) in 0%..100%, and the sums that must fit spec.replicas.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { has, type Json } from '../../machinery/json.js';

/** No maxReplicas counts as this many in Σmax. */
const unboundedMax = 1000000;

/** ParseSubsetReplicas: an int ≥ 0, or "N%" of `total` rounded half-up; `total` < 0 means unset. */
export function parseSubsetReplicas(total: number, value: unknown): { value: number; error?: string } {
  if (typeof value === 'number') {
    return value < 0 ? { value: 0, error: `subsetReplicas (${value}) should not be less than 0` } : { value };
  }
  const text = String(value);
  if (total < 0) return { value: 0, error: `subsetReplicas (${text}) should not be string when unitedDeployment replicas is empty` };
  if (!text.endsWith('%')) return { value: 0, error: `subset replicas (${text}) only support integer value or percentage value with a suffix '%'` };
  const percent = /^-?\d+$/.test(text.slice(0, -1)) ? Number.parseInt(text.slice(0, -1), 10) : Number.NaN;
  if (Number.isNaN(percent)) return { value: 0, error: `subset replicas (${text}) should be correct percentage integer` };
  if (percent < 0 || percent > 100) return { value: 0, error: `subset replicas (${text}) should be in range [0, 100]` };
  return { value: Math.floor((total * percent) / 100 + 0.5) };
}

export function validateSubsetReplicas(replicas: number | undefined, subsets: Json[], path: string): FieldError[] {
  const total = replicas ?? -1;
  const errs: FieldError[] = [];
  const parse = (i: number, key: string): number | undefined => {
    if (!has(subsets[i], key)) return undefined;
    const parsed = parseSubsetReplicas(total, subsets[i][key]);
    if (parsed.error) errs.push(field.invalid(`${path}[${i}].${key}`, subsets[i][key], parsed.error));
    return parsed.value;
  };
  let sum = 0; let sumMin = 0; let sumMax = 0; let withReplicas = 0; let withMax = 0;
  subsets.forEach((_, i) => {
    const r = parse(i, 'replicas');
    const min = parse(i, 'minReplicas') ?? 0;
    const max = parse(i, 'maxReplicas');
    if (r !== undefined) withReplicas++;
    if (max !== undefined) withMax++;
    sum += r ?? 0;
    sumMin += min;
    sumMax += max ?? unboundedMax;
    if (min > (max ?? unboundedMax)) {
      errs.push(field.invalid(`${path}[${i}].minReplicas`, subsets[i].minReplicas, `subset[${i}].minReplicas must not be greater than maxReplicas`));
    }
  });
  const hasCapacity = subsets.some((s) => has(s, 'minReplicas') || has(s, 'maxReplicas'));
  if (withReplicas > 0 && hasCapacity) {
    return [...errs, field.invalid(path, subsets, 'subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment')];
  }
  if (hasCapacity) {
    if (total < 0) errs.push(field.invalid(path, null, 'spec.replicas must be not empty if you set subset.minReplicas/maxReplicas'));
    if (withMax >= subsets.length) errs.push(field.invalid(path, withMax, 'at least one subset.maxReplicas must be empty'));
    if (sumMin > sumMax) errs.push(field.invalid(path, sumMin, 'sum of indicated subset.minReplicas should not be greater than sum of indicated subset.maxReplicas'));
  } else if (total >= 0) {
    if (sum > total) errs.push(field.invalid(path, sum, `sum of indicated subset replicas ${sum} should not be greater than UnitedDeployment replicas ${total}`));
    if (withReplicas > 0 && withReplicas === subsets.length && sum !== total) {
      errs.push(field.invalid(path, sum, `if replicas of all subsets are provided, the sum of indicated subset replicas ${sum} should equal UnitedDeployment replicas ${total}`));
    }
  } else if (withReplicas !== subsets.length) {
    errs.push(field.invalid(path, sum, 'if UnitedDeployment replicas is not provided, replicas of all subsets should be provided'));
  }
  return errs;
}
