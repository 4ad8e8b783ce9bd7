/**
 * ValidateNodeSelectorTerm and ValidatePreferredSchedulingTerms with kube's messages, for the
 * subset node selectors of WorkloadSpread and UnitedDeployment.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { invalidEach, qualifiedName } from '../../machinery/validation/checks.js';
import { isDNS1123Subdomain } from '../../machinery/validation/names.js';
import { child, isObject, items, str, strings, type Json } from '../../machinery/json.js';

export function validateNodeSelectorTerm(term: unknown, path: string): FieldError[] {
  if (!isObject(term)) return [];
  const errs: FieldError[] = [];
  items(term, 'matchExpressions').forEach((req, j) => errs.push(...validateRequirement(req, `${path}.matchExpressions[${j}]`)));
  items(term, 'matchFields').forEach((req, j) => errs.push(...validateFieldRequirement(req, `${path}.matchFields[${j}]`)));
  return errs;
}

function validateRequirement(req: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(req, 'values');
  switch (req.operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(field.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(field.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) errs.push(field.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(field.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...qualifiedName(`${path}.key`, str(req, 'key')));
  return errs;
}

function validateFieldRequirement(req: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(req, 'values');
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length !== 1) {
      errs.push(field.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    }
  } else {
    errs.push(field.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
  }
  if (str(req, 'key') !== 'metadata.name') {
    errs.push(field.invalid(`${path}.key`, str(req, 'key'), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => errs.push(...invalidEach(`${path}.values[${i}]`, v, isDNS1123Subdomain(v))));
  }
  return errs;
}

export function validatePreferredSchedulingTerms(terms: unknown, path: string): FieldError[] {
  if (!Array.isArray(terms)) return [];
  const errs: FieldError[] = [];
  terms.forEach((term: unknown, i) => {
    const weight = isObject(term) ? term.weight : undefined;
    if (typeof weight !== 'number' || weight <= 0 || weight > 100) {
      errs.push(field.invalid(`${path}[${i}].weight`, weight ?? 0, 'must be in the range 1-100'));
    }
    errs.push(...validateNodeSelectorTerm(child(term, 'preference') ?? {}, `${path}[${i}].preference`));
  });
  return errs;
}
