/**
 * Turns server answers into observations that two servers must agree on: values that are random
 * or time-dependent (uids, timestamps, resourceVersions, generateName suffixes) become placeholders,
 * while their shape (format, order, equality) is kept.
 */
import type { ApiResponse, Json, WatchEvent } from './api.js';

/** What a case reports; compared with deepStrictEqual between the two servers. */
export type Observation = { [key: string]: unknown };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const time = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const generatedSuffix = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
/** Objects KCM puts into every namespace of the real cluster; nothing in a case depends on them. */
const backgroundNames = new Set(['kube-root-ca.crt', 'default']);

function scalar(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (key === 'resourceVersion') return value === '' ? '' : '<rv>';
  if (uuid.test(value)) return '<uid>';
  const t = time.exec(value);
  if (t) return t[1] ? `<time${'.'.padEnd(t[1].length, 'f')}>` : '<time>';
  return value;
}

/**
 * Go serialises empty non-pointer structs and nil timestamps (`resources: {}`, `status: {}`,
 * template `creationTimestamp: null`); dropping them keeps the cases about behaviour. The one
 * case that compares whole objects keeps them (docs/known-differences.md).
 */
function goZeroValue(key: string, value: unknown, depth: number): boolean {
  if (key === 'creationTimestamp' && value === null) return true;
  const empty = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
  return empty && (key === 'resources' || key === 'f:resources' || (key === 'status' && depth === 1));
}

function walk(value: unknown, key: string, keepGo: boolean, depth: number): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, key, keepGo, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!keepGo && goZeroValue(k, v, depth + 1)) continue;
      out[k] = walk(v, k, keepGo, depth + 1);
    }
    return out;
  }
  return scalar(key, value);
}

/** An object with uid/timestamps/resourceVersion/generated name suffix replaced by placeholders. */
export function normalizeObject(obj: Json, options: { keepGoZeroValues?: boolean } = {}): Json {
  if (!obj || typeof obj !== 'object') return obj;
  const out = walk(obj, '', options.keepGoZeroValues ?? false, 0) as Json;
  const meta = out.metadata;
  if (meta?.generateName && typeof meta.name === 'string' && meta.name.startsWith(meta.generateName)) {
    const suffix = meta.name.slice(meta.generateName.length);
    meta.name = generatedSuffix.test(suffix) ? `${meta.generateName}<suffix>` : `${meta.generateName}<bad suffix ${suffix}>`;
  }
  return out;
}

/** One `field: Kind of problem` entry inside `... is invalid: [a, b]`. */
const causeStart = /, (?=\.?[A-Za-z][\w.[\]/-]*: (?:Invalid value|Required value|Unsupported value|Too long|Too many|Forbidden|Duplicate value|Not found))/;

/**
 * Upstream lists the causes of some Invalid errors in map iteration order (custom resources), so
 * the bracketed list is sorted; cause order is not something clients act on.
 */
function sortInvalidList(text: string): string {
  const m = /^(.*? is invalid: )\[(.*)\]$/s.exec(text);
  if (!m) return text;
  return `${m[1]}[${m[2].split(causeStart).sort().join(', ')}]`;
}

/** Placeholders inside free text: uids, resourceVersion numbers in 410 messages, timestamps. */
export function normalizeMessage(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  return sortInvalidList(text)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/too old resource version: \d+ \(\d+\)/g, 'too old resource version: <rv> (<rv>)')
    .replace(/(ResourceVersion in (?:the )?precondition:? \(?)\d+/g, '$1<rv>')
    .replace(/(ResourceVersion in (?:record|object meta):? \(?)\d+/g, '$1<rv>')
    .replace(/\(0x[0-9a-f]+\)/g, '(<ptr>)');
}

/** The parts of an error answer clients act on: HTTP code, Status reason/code/details, causes. */
export function statusOf(res: Pick<ApiResponse, 'status' | 'body' | 'text'>): Observation {
  const b = res.body ?? {};
  if (b.kind !== 'Status') return { http: res.status, kind: b.kind ?? (res.text ? 'non-JSON' : 'empty') };
  const causes = (b.details?.causes ?? []) as { reason?: string; field?: string }[];
  return {
    http: res.status, status: b.status, reason: b.reason, code: b.code, message: normalizeMessage(b.message),
    details: b.details ? { name: b.details.name, group: b.details.group, kind: b.details.kind } : undefined,
    causes: causes.map((c) => ({ reason: c.reason, field: c.field })).sort((a, b) => `${a.field} ${a.reason}`.localeCompare(`${b.field} ${b.reason}`)),
  };
}

/** The Status summary without the message, for cases whose messages are compared elsewhere. */
export function statusCode(res: ApiResponse): Observation {
  const { message: _message, ...rest } = statusOf(res);
  return rest;
}

/** Either the Status summary (errors) or the normalised object (success). */
export function outcome(res: ApiResponse): Observation {
  if (res.status >= 400 || res.body?.kind === 'Status') return statusOf(res);
  return { http: res.status, object: normalizeObject(res.body) };
}

/** Item names of a list, minus the objects KCM creates in every namespace. */
export function itemNames(list: Json): string[] {
  const items = (list?.items ?? []) as Json[];
  return items.map((i) => normalizeObject(i).metadata.name as string).filter((n) => !backgroundNames.has(n));
}

/** Watch events without bookmarks and without KCM's background objects. */
export function relevant(events: WatchEvent[]): WatchEvent[] {
  return events.filter((e) => e.type !== 'BOOKMARK' && !backgroundNames.has(e.object?.metadata?.name));
}

/** `TYPE name` per relevant watch event. */
export function eventSummary(events: WatchEvent[]): string[] {
  return relevant(events)
    .map((e) => (e.type === 'ERROR' ? `ERROR ${e.object?.code} ${e.object?.reason}` : `${e.type} ${e.object.metadata.name}`));
}

/** How a resourceVersion moved: the only RV facts two servers can share. */
export function rvMove(before: string | undefined, after: string | undefined): string {
  if (before === undefined || after === undefined) return `missing (${before === undefined ? 'before' : 'after'})`;
  const a = BigInt(before);
  const b = BigInt(after);
  return a === b ? 'same' : a < b ? 'increased' : 'decreased';
}

/** Picks the listed dot paths out of an object, e.g. pick(pod, ['spec.restartPolicy']). */
export function pick(obj: Json, paths: string[]): Observation {
  const out: Observation = {};
  for (const p of paths) out[p] = p.split('.').reduce<Json>((v, k) => (v == null ? undefined : v[k]), obj);
  return out;
}
