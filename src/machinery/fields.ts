/**
 * Field selectors (`fieldSelector` query parameter), parsed like apimachinery's fields.ParseSelector:
 * comma-separated terms `field=value`, `field==value`, `field!=value`, where `\,`, `\=` and `\\` escape
 * the separator characters inside a value. Which fields a resource supports is the caller's business.
 */
import { errors } from './errors.js';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
  /** `get` returns a field's value; a missing field compares as the empty string, as upstream. */
  matches(get: (field: string) => string | undefined): boolean;
  empty: boolean;
  /** Canonical form, with values escaped. */
  toString(): string;
}

/** Split on commas that are not escaped; the backslashes stay for unescapeValue. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    if (escaped) escaped = false;
    else if (text[i] === '\\') escaped = true;
    else if (text[i] === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The first operator occurrence splits the term; `!=` and `==` win over `=` at the same place. */
function splitTerm(term: string): [string, '=' | '==' | '!=', string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function unescapeValue(s: string): string {
  let out = '';
  let escaped = false;
  for (const c of s) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, i.e. as its code point number.
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (escaped) throw errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

class TermSelector implements FieldSelector {
  constructor(readonly requirements: FieldRequirement[]) {}
  get empty(): boolean { return this.requirements.length === 0; }
  matches(get: (field: string) => string | undefined): boolean {
    return this.requirements.every((r) => ((get(r.field) ?? '') === r.value) === (r.op === '='));
  }
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.op}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** fields.ParseSelector; malformed input is 400 BadRequest with upstream's message. */
export function parseFieldSelector(text: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  // Upstream sorts the raw terms, which fixes the order of requirements and of toString().
  for (const part of splitTerms(text).sort()) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw errors.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [fieldName, op, raw] = split;
    requirements.push({ field: fieldName, op: op === '!=' ? '!=' : '=', value: unescapeValue(raw) });
  }
  return new TermSelector(requirements);
}

/** The check a resource's field label conversion does: every field must be one it can filter on. */
export function checkSupportedFields(sel: FieldSelector, supported: ReadonlySet<string>): void {
  for (const r of sel.requirements) {
    if (!supported.has(r.field)) throw errors.badRequest(`field label not supported: ${r.field}`);
  }
}

/** Fields every resource supports. */
export const METADATA_FIELDS: ReadonlySet<string> = new Set(['metadata.name', 'metadata.namespace']);
