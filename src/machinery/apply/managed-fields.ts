/**
 * managedFields bookkeeping: decoding and encoding entries, comparing two versions of an object,
 * and recording a non-apply write (operation Update), after upstream's fieldmanager.
 */
import { type KObject, type ManagedFieldsEntry, isObject } from '../../api/meta.js';
import { FieldSet, fieldSetFromValue, fromFieldsV1, listItemElement, toFieldsV1 } from './field-set.js';
import type { ListType, TypeHints } from './type-hints.js';
import { compareStrings as byString } from '../order.js';

/** One decoded managedFields entry. */
export interface Manager {
  /** Upstream's manager identifier: JSON of manager, operation, apiVersion (Update only), subresource. */
  id: string;
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
  /** The entry this was decoded from, reused as is when neither set, time nor apiVersion changed. */
  source?: { entry: ManagedFieldsEntry; set: FieldSet };
}

export interface UpdateOptions {
  manager: string;
  apiVersion: string;
  hints: TypeHints;
  /** RFC 3339 time written into entries that gain fields. */
  now: string;
  subresource?: string;
}

/** Metadata fields upstream never tracks (stripMetaManager); `metadata` itself is never a member. */
export const untrackedMetadata = new Set([
  'name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion',
]);

export function managerId(m: { manager: string; operation: 'Apply' | 'Update'; apiVersion?: string; subresource?: string }): string {
  const id: Record<string, string> = { manager: m.manager, operation: m.operation };
  if (m.operation === 'Update' && m.apiVersion) id.apiVersion = m.apiVersion;
  if (m.subresource) id.subresource = m.subresource;
  return JSON.stringify(id);
}

/** `managedFields: [{}]` (every entry empty) asks to stop tracking (SA5); `[]` does not. */
export function isResetManagedFields(entries: unknown): boolean {
  return Array.isArray(entries) && entries.length > 0 && entries.every((e) => isObject(e) && Object.keys(e).length === 0);
}

/**
 * Each stored fieldsV1 object's set. A stored object is never modified and keeps the entries of
 * managers a write did not touch, so most entries of the next write are decoded already
 * (docs/design/performance.md §20); sets are immutable, so sharing them is safe.
 */
const decodedSets = new WeakMap<object, FieldSet>();

function decodedSet(fieldsV1: unknown): FieldSet {
  if (!isObject(fieldsV1)) return fromFieldsV1(fieldsV1);
  let set = decodedSets.get(fieldsV1);
  if (!set) decodedSets.set(fieldsV1, (set = fromFieldsV1(fieldsV1)));
  return set;
}

/** A set's fieldsV1, remembered as its decoding: the next write to the stored object starts from it. */
function encodedSet(set: FieldSet): Record<string, unknown> {
  const fieldsV1 = toFieldsV1(set);
  decodedSets.set(fieldsV1, set);
  return fieldsV1;
}

/** Decoded entries, or undefined when one is malformed (upstream then falls back or stops tracking). */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Manager[] | undefined {
  const byId = new Map<string, Manager>();
  for (const entry of entries ?? []) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    const { operation, apiVersion, fieldsType } = entry;
    if ((operation !== 'Apply' && operation !== 'Update') || !apiVersion || fieldsType !== 'FieldsV1') return undefined;
    const set = decodedSet(entry.fieldsV1);
    const m: Manager = {
      id: managerId({ manager: entry.manager ?? '', operation, apiVersion, subresource: entry.subresource }),
      manager: entry.manager ?? '', operation, apiVersion, subresource: entry.subresource || undefined,
      time: entry.time, set, source: { entry, set },
    };
    byId.set(m.id, m);
  }
  return [...byId.values()];
}

function seconds(time: string | undefined): number {
  const t = time ? Date.parse(time) : NaN;
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

/** Entries in upstream order: operation, time (seconds), manager, apiVersion, subresource. */
export function encodeManagedFields(managers: readonly Manager[]): ManagedFieldsEntry[] {
  const sorted = [...managers].sort((p, q) => byString(p.operation, q.operation) || seconds(p.time) - seconds(q.time)
    || byString(p.manager, q.manager) || byString(p.apiVersion, q.apiVersion) || byString(p.subresource ?? '', q.subresource ?? ''));
  return sorted.map((m) => {
    const src = m.source;
    const kept = src && src.set === m.set ? src.entry : undefined;
    if (kept && kept.time === m.time && kept.apiVersion === m.apiVersion) return { ...kept };
    const entry: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time) entry.time = m.time;
    entry.fieldsType = 'FieldsV1';
    // a writer that only set fields it owned keeps its set: its encoding too, with a new time
    entry.fieldsV1 = kept?.fieldsV1 ?? encodedSet(m.set);
    if (m.subresource) entry.subresource = m.subresource;
    return entry;
  });
}

/** What a write did: fields added or modified (with wholly new nodes as members) and removed subtrees. */
export interface Comparison {
  changed: FieldSet;
  removed: FieldSet;
}

export function compareObjects(oldObj: unknown, newObj: unknown, hints: TypeHints): Comparison {
  const cmp: Comparison = { changed: new FieldSet(), removed: new FieldSet() };
  compareMaps(isObject(oldObj) ? oldObj : {}, isObject(newObj) ? newObj : {}, [], hints, cmp);
  return cmp;
}

function untracked(path: string[], key: string): boolean {
  if (path.length === 0) return key === 'apiVersion' || key === 'kind';
  return path.length === 1 && path[0] === 'metadata' && untrackedMetadata.has(key);
}

function impliedField(path: string[], hints: TypeHints): boolean {
  return (path.length === 1 && path[0] === 'metadata') || (hints.alwaysPresent?.(path) ?? false);
}

const isContainer = (v: unknown): boolean => isObject(v) || Array.isArray(v);
const emptyLike = (v: unknown): unknown => (Array.isArray(v) ? [] : {});

function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>, path: string[], hints: TypeHints, out: Comparison): void {
  for (const key in b) {
    const bv = b[key];
    if (bv === undefined || untracked(path, key)) continue;
    path.push(key);
    let av = a[key];
    // A typed empty object already holds metadata and the always-present fields: recurse, don't own them.
    if (av === undefined && isContainer(bv) && impliedField(path, hints)) av = emptyLike(bv);
    if (av === undefined) out.changed.setChild('f:' + key, fieldSetFromValue(bv, path, hints, true));
    else compareValues(av, bv, 'f:' + key, path, hints, out);
    path.pop();
  }
  for (const key in a) {
    if (a[key] === undefined || b[key] !== undefined || untracked(path, key)) continue;
    path.push(key);
    out.removed.setChild('f:' + key, fieldSetFromValue(a[key], path, hints, true));
    path.pop();
  }
}

function leaf(): FieldSet {
  const s = new FieldSet();
  s.member = true;
  return s;
}

function compareValues(av: unknown, bv: unknown, el: string, path: string[], hints: TypeHints, out: Comparison): void {
  if (av === bv || sameJson(av, bv)) return; // most subtrees of a write are unchanged: skip them cheaply
  if (av === null && isContainer(bv)) av = emptyLike(bv);
  if (bv === null && isContainer(av)) bv = emptyLike(av);
  if (isObject(av) && isObject(bv) && !hints.mapAtomic?.(path)) return descend(el, out, (sub) => compareMaps(av, bv, path, hints, sub));
  if (Array.isArray(av) && Array.isArray(bv)) {
    const lt = hints.listType(path);
    if (lt && (lt.type === 'set' || (lt.type === 'map' && lt.keys?.length))) {
      return descend(el, out, (sub) => compareLists(av, bv, lt, path, hints, sub));
    }
  }
  if (isContainer(av) !== isContainer(bv) || Array.isArray(av) !== Array.isArray(bv)) {
    out.removed.setChild(el, fieldSetFromValue(av, path, hints, true));
    out.changed.setChild(el, fieldSetFromValue(bv, path, hints, true));
  } else out.changed.setChild(el, leaf());
}

function descend(el: string, out: Comparison, fill: (sub: Comparison) => void): void {
  const sub: Comparison = { changed: new FieldSet(), removed: new FieldSet() };
  fill(sub);
  out.changed.setChild(el, sub.changed);
  out.removed.setChild(el, sub.removed);
}

function itemSubtree(item: unknown, lt: ListType, path: string[], hints: TypeHints): FieldSet {
  return lt.type === 'map' && isObject(item) ? fieldSetFromValue(item, path, hints, true) : leaf();
}

function compareLists(a: unknown[], b: unknown[], lt: ListType, path: string[], hints: TypeHints, out: Comparison): void {
  const before = new Map<string, unknown>();
  for (const item of a) {
    const el = listItemElement(item, lt);
    if (el !== undefined && !before.has(el)) before.set(el, item);
  }
  const seen = new Set<string>();
  for (const item of b) {
    const el = listItemElement(item, lt);
    if (el === undefined || seen.has(el)) continue;
    seen.add(el);
    const old = before.get(el);
    if (old === undefined) out.changed.setChild(el, itemSubtree(item, lt, path, hints));
    else if (lt.type === 'map' && isObject(old) && isObject(item)) descend(el, out, (sub) => compareMaps(old, item, path, hints, sub));
  }
  for (const [el, item] of before) if (!seen.has(el)) out.removed.setChild(el, itemSubtree(item, lt, path, hints));
}

/** Structural equality of JSON values; keys holding undefined count as absent. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    if (!sameJson(ao[k], bo[k])) return false;
    count++;
  }
  for (const k in bo) if (bo[k] !== undefined) count--;
  return count === 0;
}

/**
 * The managers after a write by `opts.manager` with operation Update: it gains what changed, every
 * manager loses what changed or was removed, and empty entries go.
 */
export function applyUpdate(managers: readonly Manager[], cmp: Comparison, opts: UpdateOptions): Manager[] {
  const touched = cmp.changed.union(cmp.removed);
  if (touched.isEmpty()) return [...managers];
  const id = managerId({ manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, subresource: opts.subresource });
  const out: Manager[] = [];
  let own: Manager | undefined;
  for (const m of managers) {
    // the writer keeps what it changes, so only removals leave its set: unchanged, it stays the same set
    if (m.id === id) {
      own = { ...m, set: m.set.difference(cmp.removed) };
      continue;
    }
    const set = m.set.difference(touched);
    if (!set.isEmpty()) out.push(set === m.set ? m : { ...m, set });
  }
  const gained = !cmp.changed.isEmpty();
  const set = (own?.set ?? new FieldSet()).union(cmp.changed);
  if (!set.isEmpty()) {
    out.push({
      id, manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, subresource: opts.subresource || undefined,
      time: gained ? opts.now : own?.time, set, source: own?.source,
    });
  }
  return out;
}

/** The managers to start from: the request's entries if valid (not on subresources), else the live ones. */
function baseManagers(live: KObject | undefined, updated: KObject, subresource: string | undefined): Manager[] {
  const requested = updated.metadata?.managedFields;
  if (isResetManagedFields(requested)) return [];
  const fromRequest = !subresource && requested?.length ? decodeManagedFields(requested) : undefined;
  if (fromRequest?.length) return fromRequest;
  return decodeManagedFields(live?.metadata?.managedFields) ?? [];
}

/**
 * managedFields after a create/update/patch that is not an apply. On create (`live` undefined) the
 * writer owns everything it set. An existing object without managedFields stays untracked, as
 * upstream does after a reset; its next apply starts tracking again.
 */
export function recordUpdate(live: KObject | undefined, updated: KObject, opts: UpdateOptions): ManagedFieldsEntry[] {
  const managers = baseManagers(live, updated, opts.subresource);
  if (live && managers.length === 0) return [];
  const cmp = compareObjects(live ?? {}, updated, opts.hints);
  return encodeManagedFields(applyUpdate(managers, cmp, opts));
}
