/**
 * metav1.LabelSelector as plain JSON: validation with upstream messages, and matching against a
 * label set (empty selector matches everything, as LabelSelectorAsSelector makes it).
 */
import { field, type FieldError } from '../errors.js';
import { isValidLabelValue, validateLabels } from './names.js';
import { qualifiedName } from './checks.js';
import { child, isObject, items, str, stringMap, strings, type Json } from '../json.js';

export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isObject(selector)) return [];
  const errs = validateLabels(stringMap(selector, 'matchLabels'), `${path}.matchLabels`);
  items(selector, 'matchExpressions').forEach((req, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const op = req.operator;
    const values = strings(req, 'values');
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(field.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0) errs.push(field.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(field.invalid(`${p}.operator`, op ?? '', 'not a valid selector operator'));
    }
    errs.push(...qualifiedName(`${p}.key`, str(req, 'key')));
    values.forEach((v, j) => errs.push(...isValidLabelValue(v).map((m) => field.invalid(`${p}.values[${j}]`, v, m))));
  });
  return errs;
}

/** True for a selector with neither matchLabels nor matchExpressions (it would select everything). */
export function isEmptySelector(selector: unknown): boolean {
  return Object.keys(stringMap(selector, 'matchLabels')).length === 0 && items(selector, 'matchExpressions').length === 0;
}

export function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  if (!isObject(selector)) return false;
  for (const [k, v] of Object.entries(stringMap(selector, 'matchLabels'))) if (labels[k] !== v) return false;
  return items(selector, 'matchExpressions').every((req) => requirementMatches(req, labels));
}

function requirementMatches(req: Json, labels: Record<string, string>): boolean {
  const key = str(req, 'key');
  const present = Object.prototype.hasOwnProperty.call(labels, key);
  const values = strings(req, 'values');
  switch (req.operator) {
    case 'In': return present && values.includes(labels[key]);
    case 'NotIn': return !present || !values.includes(labels[key]);
    case 'Exists': return present;
    case 'DoesNotExist': return !present;
    default: return false;
  }
}

/** The labels of a pod template (`template.metadata.labels`). */
export function templateLabels(template: unknown): Record<string, string> {
  return stringMap(child(template, 'metadata'), 'labels');
}
