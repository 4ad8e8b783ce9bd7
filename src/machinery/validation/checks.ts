/**
 * Reusable field checks with apimachinery's exact wording (ValidateNonnegativeField,
 * ValidateImmutableField, IsValidPortNum, IsValidPercent, IsDNS1035Label ...).
 */
import { field, type FieldError } from '../errors.js';
import { semanticEqual } from '../semantic-equal.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from './names.js';

const dns1035Fmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035Re = new RegExp(`^${dns1035Fmt}$`);

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Re.test(value)) {
    errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character,"
      + ` and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035Fmt}')`);
  }
  return errs;
}

/** One Invalid error per message of a string check, all at `path`. */
export function invalidEach(path: string, value: unknown, messages: string[]): FieldError[] {
  return messages.map((m) => field.invalid(path, value, m));
}

export const dnsLabel = (path: string, v: string): FieldError[] => invalidEach(path, v, isDNS1123Label(v));
export const dnsSubdomain = (path: string, v: string): FieldError[] => invalidEach(path, v, isDNS1123Subdomain(v));
export const qualifiedName = (path: string, v: string): FieldError[] => invalidEach(path, v, isQualifiedName(v));

export function nonNegative(path: string, value: unknown): FieldError[] {
  return typeof value === 'number' && value < 0 ? [field.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

export function immutable(path: string, next: unknown, old: unknown): FieldError[] {
  return semanticEqual(next, old) ? [] : [field.invalid(path, next ?? null, 'field is immutable')];
}

export function portNumber(path: string, value: unknown): FieldError[] {
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
  return ok ? [] : [field.invalid(path, value, 'must be between 1 and 65535, inclusive')];
}

/** An enum string field: Required when empty, NotSupported when unknown (`valid` in upstream's order). */
export function oneOf(path: string, value: unknown, valid: string[], required = true): FieldError[] {
  if (value === undefined || value === null || value === '') return required ? [field.required(path)] : [];
  return typeof value === 'string' && valid.includes(value) ? [] : [field.notSupported(path, value, valid)];
}

const percentFmt = '[0-9]+%';
const percentRe = new RegExp(`^${percentFmt}$`);

/** ValidatePositiveIntOrPercent plus IsNotMoreThan100Percent when `max100`. */
export function intOrPercent(path: string, value: unknown, max100 = false): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return nonNegative(path, value);
  if (typeof value !== 'string') return [field.invalid(path, value, "must be an integer or percentage (e.g '5%')")];
  if (!percentRe.test(value)) {
    return [field.invalid(path, value, "a valid percent string must be a numeric string followed by an ending '%' "
      + `(e.g. '1%',  or '93%', regex used for validation is '${percentFmt}')`)];
  }
  if (max100 && Number.parseInt(value, 10) > 100) return [field.invalid(path, value, 'must not be greater than 100%')];
  return [];
}

/** The integer an int-or-percent stands for when compared with zero (percent strings by their number). */
export function intOrPercentIsZero(value: unknown): boolean {
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'string') return Number.parseInt(value, 10) === 0;
  return true;
}
