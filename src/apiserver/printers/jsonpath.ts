/**
 * Kubernetes-style JSONPath as used by printer columns and `-o jsonpath`: `.spec.replicas`,
 * `.items[*].name`, `.status.conditions[?(@.type=="Ready")].status`, `['a.b']`, `[0]`, `[1:3]`,
 * `..name`; surrounding braces are optional. Missing keys yield no result instead of an error.
 */
import { parseJsonPath, type FilterOperand, type Segment } from './jsonpath-parse.js';

export type { Segment } from './jsonpath-parse.js';

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return isRecord(v) ? Object.values(v) : [];
}

function descendants(v: unknown, out: unknown[]): unknown[] {
  out.push(v);
  for (const c of children(v)) descendants(c, out);
  return out;
}

function normalizeIndex(i: number, length: number): number {
  return i < 0 ? i + length : i;
}

function sliceOf(arr: unknown[], start?: number, end?: number, step = 1): unknown[] {
  const len = arr.length;
  const from = Math.max(0, Math.min(len, normalizeIndex(start ?? 0, len)));
  const to = Math.max(0, Math.min(len, normalizeIndex(end ?? len, len)));
  const out: unknown[] = [];
  for (let i = from; i < to; i += Math.max(1, step)) out.push(arr[i]);
  return out;
}

function operandValues(op: FilterOperand, item: unknown): unknown[] {
  return op.kind === 'literal' ? [op.value] : evaluate(op.path, [item]);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  const x = a as number | string;
  const y = b as number | string;
  return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
}

function matches(seg: Extract<Segment, { kind: 'filter' }>, item: unknown): boolean {
  const left = operandValues(seg.left, item);
  if (!seg.right) return left.length > 0 && left[0] !== null && left[0] !== false;
  const right = operandValues(seg.right, item);
  return left.length > 0 && right.length > 0 && compare(left[0], seg.op ?? '==', right[0]);
}

function step(seg: Segment, v: unknown): unknown[] {
  switch (seg.kind) {
    case 'field':
      return isRecord(v) && Object.hasOwn(v, seg.name) ? [v[seg.name]] : [];
    case 'wildcard':
      return children(v);
    case 'index':
      return seg.indices.flatMap((i) => (Array.isArray(v) && normalizeIndex(i, v.length) in v ? [v[normalizeIndex(i, v.length)]] : []));
    case 'slice':
      return Array.isArray(v) ? sliceOf(v, seg.start, seg.end, seg.step) : [];
    case 'filter':
      return (Array.isArray(v) ? v : [v]).filter((item) => matches(seg, item));
    case 'recursive':
      return descendants(v, []).flatMap((d) => step(seg.then, d));
  }
}

function evaluate(segments: Segment[], start: unknown[]): unknown[] {
  let values = start;
  for (const seg of segments) values = values.flatMap((v) => step(seg, v));
  return values;
}

/** A compiled path: call it with an object to get every matching value, in document order. */
export type JsonPath = (obj: unknown) => unknown[];

/** Compiles a path once (throws on syntax errors) for repeated evaluation. */
export function compileJsonPath(path: string): JsonPath {
  const segments = parseJsonPath(path);
  return (obj) => evaluate(segments, [obj]);
}

/** All values matching `path` in `obj`. */
export function evaluateJsonPath(obj: unknown, path: string): unknown[] {
  return compileJsonPath(path)(obj);
}

/** The first matching value, or null when nothing matches (an empty printer cell). */
export function jsonPathValue(obj: unknown, path: string): unknown {
  const results = evaluateJsonPath(obj, path);
  return results.length > 0 ? results[0] : null;
}

/** Go's %g for a float64, which kubectl's text output uses for non-integral numbers. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 21) return String(n);
  return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Renders a value as kubectl's JSONPath text printer does (Go fmt %v: `map[k:v]`, `[a b]`). */
export function formatJsonPathValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatJsonPathValue).join(' ')}]`;
  const rec = value as Json;
  const keys = Object.keys(rec).sort();
  return `map[${keys.map((k) => `${k}:${formatJsonPathValue(rec[k])}`).join(' ')}]`;
}
