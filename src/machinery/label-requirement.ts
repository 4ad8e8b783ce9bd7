/**
 * One label requirement (`key op values`), built and validated the way apimachinery's
 * labels.NewRequirement does, with its error texts, plus matching and printing.
 */
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

/** selection.Operator spellings. */
export type Operator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

/** A requirement that failed validation; `message` is the aggregated Go error text. */
export class RequirementError extends Error {}

/** Go's %#v of a []string. */
const goStrings = (vals: readonly string[]): string => `[]string{${vals.map((v) => JSON.stringify(v)).join(', ')}}`;
const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${value}: ${detail}`;

/** field.Invalid(path, key, ...) for a bad key; `path` is `<nil>` when the parser checks it. */
export function keyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? invalid(path, JSON.stringify(key), errs.join('; ')) : undefined;
}

/** Go's strconv.ParseInt(s, 10, 64). */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

function operatorErrors(op: Operator, vals: readonly string[]): string[] {
  const errs: string[] = [];
  switch (op) {
    case 'in': case 'notin':
      if (vals.length === 0) errs.push(invalid('values', goStrings(vals), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (vals.length !== 1) errs.push(invalid('values', goStrings(vals), 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (vals.length !== 0) errs.push(invalid('values', goStrings(vals), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (vals.length !== 1) errs.push(invalid('values', goStrings(vals), "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, JSON.stringify(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  return errs;
}

/** labels.NewRequirement: throws RequirementError with the aggregated message. */
export function newRequirement(key: string, operator: Operator, values: readonly string[]): Requirement {
  const errs: string[] = [];
  const k = keyError(key, 'key');
  if (k) errs.push(k);
  errs.push(...operatorErrors(operator, values));
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(invalid(`values[${i}][${key}]`, JSON.stringify(v), msgs.join('; ')));
  });
  if (errs.length) throw new RequirementError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return { key, operator, values: [...values] };
}

export function requirementMatches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case '=': case '==': case 'in':
      return has && r.values.includes(value as string);
    case '!=': case 'notin':
      return !has || !r.values.includes(value as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      const actual = has ? parseInt64(value as string) : undefined;
      const bound = r.values.length === 1 ? parseInt64(r.values[0]) : undefined;
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

const OP_TEXT: Record<Operator, string> = {
  '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '',
};

/** Requirement.String(): values printed sorted, set operators in parentheses. */
export function requirementToString(r: Requirement): string {
  if (r.operator === '!') return `!${r.key}`;
  if (r.operator === 'exists') return r.key;
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  const body = r.operator === 'in' || r.operator === 'notin' ? `(${vals})` : vals;
  return `${r.key}${OP_TEXT[r.operator]}${body}`;
}
