/**
 * ResourceRequirements checks: parsable, non-negative quantities and requests within limits (equal for
 * resources that may not be overcommitted: hugepages and extended resources).
 */
import { field, type FieldError } from '../errors.js';
import { compareQuantities, isValidQuantity, QUANTITY_FORMAT_ERROR } from '../quantity.js';
import { child, isObject, type Json } from '../json.js';

const overcommitAllowed = (name: string) =>
  !name.startsWith('hugepages-') && (!name.includes('/') || name.startsWith('kubernetes.io/'));

function validateList(list: Json | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, q] of Object.entries(list ?? {})) {
    const p = `${path}[${name}]`;
    if ((typeof q !== 'string' && typeof q !== 'number') || !isValidQuantity(q)) errs.push(field.invalid(p, q, QUANTITY_FORMAT_ERROR));
    else if (compareQuantities(q, 0) < 0) errs.push(field.invalid(p, String(q), 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateResourceRequirements(resources: unknown, path: string): FieldError[] {
  if (!isObject(resources)) return [];
  const requests = child(resources, 'requests');
  const limits = child(resources, 'limits');
  const errs = [...validateList(limits, `${path}.limits`), ...validateList(requests, `${path}.requests`)];
  if (errs.length > 0 || !requests || !limits) return errs;
  for (const [name, q] of Object.entries(requests)) {
    const limit = limits[name];
    if (limit === undefined) continue;
    const cmp = compareQuantities(q as string, limit as string);
    if (cmp !== 0 && !overcommitAllowed(name)) {
      errs.push(field.invalid(`${path}.requests`, String(q), `must be equal to ${name} limit of ${String(limit)}`));
    } else if (cmp > 0) {
      errs.push(field.invalid(`${path}.requests`, String(q), `must be less than or equal to ${name} limit of ${String(limit)}`));
    }
  }
  return errs;
}
