/**
 * Whether two label selectors may select a common label set, conservatively (Kruise's
 * util.IsSelectorOverlapping): they are disjoint only when one key carries incompatible
 * constraints (different matchLabels values, In sets that do not intersect, In or Exists against
 * DoesNotExist ...). A missing selector selects everything.
 */
import { isObject, items, str, stringMap, strings } from '../../machinery/json.js';

interface Req { key: string; op: string; values: string[] }

function requirements(selector: Record<string, unknown>): Req[] {
  const reqs: Req[] = Object.entries(stringMap(selector, 'matchLabels')).map(([key, v]) => ({ key, op: 'In', values: [v] }));
  for (const e of items(selector, 'matchExpressions')) reqs.push({ key: str(e, 'key'), op: str(e, 'operator'), values: strings(e, 'values') });
  return reqs;
}

/** One direction of the incompatibility test; `incompatible` tries both. */
function excludes(a: Req, b: Req): boolean {
  if (a.op === 'In' && b.op === 'In') return !a.values.some((v) => b.values.includes(v));
  if (a.op === 'In' && b.op === 'NotIn') return a.values.every((v) => b.values.includes(v));
  return (a.op === 'In' || a.op === 'Exists') && b.op === 'DoesNotExist';
}

const incompatible = (a: Req, b: Req): boolean => a.key === b.key && (excludes(a, b) || excludes(b, a));

export function selectorsOverlap(a: unknown, b: unknown): boolean {
  if (!isObject(a) || !isObject(b)) return true;
  const ra = requirements(a);
  const rb = requirements(b);
  return !ra.some((x) => rb.some((y) => incompatible(x, y)));
}
