/**
 * Server-side apply: merge an applied configuration into the live object by structural type
 * (maps merged, map lists merged by key, sets unioned, atomic values replaced), remove what the
 * applier owned before and dropped unless someone else owns it, detect conflicts with other
 * managers, and record ownership (operation Apply).
 */
import { type KObject, isObject } from '../../api/meta.js';
import { errors, StatusError } from '../errors.js';
import { clone, deepEqual } from '../deep-equal.js';
import { FieldSet, fieldSetFromObject, listItemElement, pathString } from './field-set.js';
import {
  applyUpdate, compareObjects, decodeManagedFields, encodeManagedFields, managerId, untrackedMetadata,
  type Manager, type UpdateOptions,
} from './managed-fields.js';
import type { ListType, TypeHints } from './type-hints.js';

export interface ApplyOptions extends UpdateOptions {
  /** Take ownership of conflicting fields instead of failing (`force=true`). */
  force: boolean;
}

/** The Update manager upstream invents for fields of an untracked object at its first apply. */
export const beforeFirstApply = 'before-first-apply';

/**
 * The object after applying `applied` for `opts.manager`, with managedFields set. `live` undefined
 * creates. Throws StatusError 409 Conflict (causes FieldManagerConflict) unless `opts.force`.
 * Inputs are not modified. A resourceVersion or uid in `applied` is carried into the result, so
 * the caller's precondition checks see it.
 */
export function serverSideApply(live: KObject | undefined, applied: KObject, opts: ApplyOptions): KObject {
  if (applied.metadata?.managedFields != null) throw errors.badRequest('metadata.managedFields must be nil');
  if (applied.apiVersion !== opts.apiVersion) {
    throw errors.badRequest(`Incorrect version specified in apply patch. Specified patch version: ${applied.apiVersion}, expected: ${opts.apiVersion}`);
  }
  const liveBody: KObject = live ? { ...live, metadata: { ...live.metadata } } : { metadata: {} };
  delete liveBody.metadata.managedFields;
  const managers = startingManagers(live, liveBody, opts);
  const config = fieldSetFromObject(applied, opts.hints);
  const merged = clone(liveBody);
  mergeMaps(merged, applied, [], opts.hints);
  const id = managerId({ manager: opts.manager, operation: 'Apply', subresource: opts.subresource });
  const previous = managers.find((m) => m.id === id);
  const others = managers.filter((m) => m !== previous);
  if (previous) {
    const owned = others.reduce((acc, m) => acc.union(m.set), config);
    pruneMap(merged, previous.set, owned, [], opts.hints, []);
  }
  const cmp = compareObjects(liveBody, merged, opts.hints);
  const conflicts = others.map((m) => ({ m, set: m.set.intersection(cmp.changed) })).filter((c) => !c.set.isEmpty());
  if (conflicts.length > 0 && !opts.force) throw conflictError(conflicts);
  const next: Manager[] = [];
  for (const m of others) {
    const set = m.set.difference(cmp.changed).difference(cmp.removed);
    if (!set.isEmpty()) next.push(set === m.set ? m : { ...m, set });
  }
  const own = untrack(config);
  if (!own.isEmpty()) {
    const changed = !deepEqual(liveBody, merged);
    next.push({
      id, manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion, subresource: opts.subresource || undefined,
      time: changed || !previous?.time ? opts.now : previous.time, set: own, source: previous?.source,
    });
  }
  const entries = encodeManagedFields(next);
  if (entries.length > 0) merged.metadata.managedFields = entries;
  else delete merged.metadata.managedFields;
  return merged;
}

/** Live managers; an existing untracked object first gets everything owned by before-first-apply. */
function startingManagers(live: KObject | undefined, liveBody: KObject, opts: ApplyOptions): Manager[] {
  if (!live) return [];
  const managers = decodeManagedFields(live.metadata.managedFields);
  if (managers === undefined) throw errors.internal('failed to decode managed fields');
  if (managers.length > 0) return managers;
  const cmp = compareObjects({}, liveBody, opts.hints);
  return applyUpdate([], cmp, { ...opts, manager: beforeFirstApply, subresource: undefined });
}

/** The applied set without the fields upstream never records (apiVersion, kind, metadata.name ...). */
function untrack(set: FieldSet): FieldSet {
  const out = new FieldSet();
  for (const [el, child] of set.children ?? []) {
    if (el === 'f:apiVersion' || el === 'f:kind') continue;
    if (el !== 'f:metadata') {
      out.setChild(el, child);
      continue;
    }
    const meta = new FieldSet();
    for (const [mel, mchild] of child.children ?? []) if (!untrackedMetadata.has(mel.slice(2))) meta.setChild(mel, mchild);
    out.setChild(el, meta);
  }
  return out;
}

// ---- merge ----

/** Server-written metadata an apply may carry only as a precondition; never deleted by it. */
const preconditionMetadata = new Set(['resourceVersion', 'uid']);

function mergeMaps(into: Record<string, unknown>, from: Record<string, unknown>, path: string[], hints: TypeHints): void {
  const inMetadata = path.length === 1 && path[0] === 'metadata';
  for (const key in from) {
    const v = from[key];
    if (v === undefined) continue;
    if (inMetadata && untrackedMetadata.has(key) && key !== 'name' && key !== 'namespace') {
      if (preconditionMetadata.has(key) && v !== null) into[key] = v;
      continue;
    }
    if (v === null) {
      delete into[key];
      continue;
    }
    path.push(key);
    into[key] = mergeValue(into[key], v, path, hints);
    path.pop();
  }
}

function mergeValue(live: unknown, v: unknown, path: string[], hints: TypeHints): unknown {
  if (isObject(v)) {
    if (isObject(live) && !hints.mapAtomic?.(path)) {
      mergeMaps(live, v, path, hints);
      return live;
    }
    return withoutNulls(v);
  }
  if (Array.isArray(v)) {
    const lt = hints.listType(path);
    const associative = lt && (lt.type === 'set' || (lt.type === 'map' && lt.keys?.length));
    if (associative && Array.isArray(live)) return mergeLists(live, v, lt, path, hints);
    return withoutNulls(v);
  }
  return v;
}

/** A copy of an applied value with null map entries dropped (null in an apply means unset). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k in v) if (v[k] !== null && v[k] !== undefined) out[k] = withoutNulls(v[k]);
  return out;
}

/**
 * Associative list merge keeping upstream's order: items only in the live list stay where they
 * were, applied items come in applied order, and shared items are placed by the applied order.
 */
function mergeLists(live: unknown[], applied: unknown[], lt: ListType, path: string[], hints: TypeHints): unknown[] {
  const lEls = live.map((i) => listItemElement(i, lt));
  const rEls = applied.map((i) => listItemElement(i, lt));
  const liveByEl = new Map<string, unknown>();
  lEls.forEach((el, i) => el !== undefined && !liveByEl.has(el) && liveByEl.set(el, live[i]));
  const inApplied = new Set(rEls.filter((el): el is string => el !== undefined));
  const shared = rEls.filter((el) => el !== undefined && liveByEl.has(el));
  let next = 0;
  const emitted = new Set<string>();
  const out: unknown[] = [];
  const emit = (el: string, item: unknown): void => {
    if (emitted.has(el)) return;
    emitted.add(el);
    const old = liveByEl.get(el);
    out.push(lt.type === 'map' && isObject(old) && isObject(item) ? mergeValue(old, item, path, hints) : withoutNulls(item));
  };
  let li = 0;
  let ri = 0;
  while (li < live.length || ri < applied.length) {
    const le = lEls[li];
    if (li < live.length && ri < applied.length && le !== undefined && inApplied.has(le) && !emitted.has(le)) {
      if (le === rEls[ri]) {
        emit(le, applied[ri]);
        li++;
        ri++;
        next++;
        continue;
      }
      if (next < shared.length && shared[next] !== le) {
        li++; // a shared item placed later by the applied order
        continue;
      }
    }
    if (li < live.length && (le === undefined || !inApplied.has(le) || emitted.has(le))) {
      if (le === undefined || !inApplied.has(le)) out.push(live[li]);
      li++;
      continue;
    }
    if (ri < applied.length) {
      const re = rEls[ri++];
      if (re === undefined) continue;
      emit(re, applied[ri - 1]);
      if (shared[next] === re) next++;
    } else li++;
  }
  return out;
}

// ---- prune ----

/**
 * Removes what the applier owned before (`last`) and no longer applies, unless another manager
 * or the new configuration (`owned`) claims it. A field with owned children counts as owned.
 */
function pruneMap(obj: Record<string, unknown>, last: FieldSet, owned: FieldSet | undefined, path: string[], hints: TypeHints, keep: string[]): void {
  for (const [el, lastChild] of last.children ?? []) {
    if (!el.startsWith('f:')) continue;
    const key = el.slice(2);
    if (obj[key] === undefined || keep.includes(key)) continue;
    const ownedChild = owned?.child(el);
    if (!ownedChild) {
      delete obj[key];
      continue;
    }
    if (!lastChild.children) continue;
    path.push(key);
    const v = obj[key];
    if (Array.isArray(v)) obj[key] = pruneList(v, lastChild, ownedChild, path, hints);
    else if (isObject(v)) pruneMap(v, lastChild, ownedChild, path, hints, []);
    path.pop();
  }
}

function pruneList(list: unknown[], last: FieldSet, owned: FieldSet, path: string[], hints: TypeHints): unknown[] {
  const lt = hints.listType(path);
  if (!lt || lt.type === 'atomic') return list;
  return list.filter((item) => {
    const el = listItemElement(item, lt);
    const lastItem = el === undefined ? undefined : last.child(el);
    if (!lastItem) return true;
    const ownedItem = owned.child(el!);
    if (lastItem.member && !ownedItem?.member) return false;
    if (lt.type === 'map' && isObject(item)) pruneMap(item, lastItem, ownedItem, path, hints, lt.keys ?? []);
    return true;
  });
}

// ---- conflicts ----

function printManager(m: Manager): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${s} using ${m.apiVersion}` : s;
}

/** The 409 upstream returns (NewApplyConflict): message grouped by manager, one cause per field. */
function conflictError(conflicts: { m: Manager; set: FieldSet }[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0));
  const groups = sorted.map(({ m, set }) => ({ who: printManager(m), paths: set.paths().map(pathString) }));
  const causes = groups.flatMap((g) => g.paths.map((field) => ({ reason: 'FieldManagerConflict', message: `conflict with ${g.who}`, field })));
  let message: string;
  if (causes.length === 1) message = `Apply failed with 1 conflict: conflict with ${groups[0].who}: ${causes[0].field}`;
  else {
    const lines = groups.flatMap((g) => [`conflicts with ${g.who}:`, ...g.paths.map((p) => `- ${p}`)]);
    message = `Apply failed with ${causes.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}
