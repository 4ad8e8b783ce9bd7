/**
 * List half of strategic merge patch: merging keyed lists and scalar sets, the `$patch` list-item
 * directives, and the ordering rules (patch order for patched items, live order for the others,
 * interleaved the way apimachinery's normalizeElementOrder does).
 */
import { errors, type StatusError } from '../errors.js';
import { getOwn, hasOwn } from './own-props.js';
import type { PatchSchema } from './patch-schema.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const bad = (message: string): StatusError => errors.badRequest(message);

/** Merges a patch map into a private original map; supplied by the map half to avoid an import cycle. */
export type MapMerger = (orig: Obj, patch: Obj, schema: PatchSchema | undefined) => Obj;

/** What identifies an item: its merge-key value, or the scalar itself. */
export type Identity = (item: unknown) => unknown;

export const identityFor = (schema: PatchSchema | undefined): Identity => {
  const list = schema?.list;
  if (list?.kind === 'map') return (item) => (isObj(item) ? getOwn(item, list.key) : undefined);
  return (item) => item;
};

/**
 * Merges `patch` into `orig` under the list strategy of `schema`. `order` is the `$setElementOrder`
 * list when the patch carried one; without it the patch list itself gives the order.
 */
export function mergeList(orig: unknown[], patch: unknown[], schema: PatchSchema | undefined, mergeMap: MapMerger, order?: unknown[]): unknown[] {
  const list = schema?.list;
  if (!list || list.kind === 'atomic') {
    return patch.map((item) => (isObj(item) ? mergeMap({}, item, schema?.items) : item));
  }
  if (list.kind === 'set') return mergeSet(orig, patch, order);
  return mergeKeyed(orig, patch, schema, list.key, mergeMap, order);
}

function mergeSet(orig: unknown[], patch: unknown[], order?: unknown[]): unknown[] {
  let replace = false;
  const items: unknown[] = [];
  for (const p of patch) {
    if (isObj(p) && p.$patch === 'replace') replace = true;
    else if (isObj(p) || Array.isArray(p)) throw bad(`a merged list of scalars cannot contain ${JSON.stringify(p)}`);
    else items.push(p);
  }
  if (replace) return [...new Set(items)];
  const merged = [...new Set([...orig, ...items])];
  return applyOrder(merged, order ?? items, orig, (x) => x);
}

function mergeKeyed(orig: unknown[], patch: unknown[], schema: PatchSchema | undefined, key: string, mergeMap: MapMerger, order?: unknown[]): unknown[] {
  let base = [...orig];
  let replace = false;
  const regular: Obj[] = [];
  for (const p of patch) {
    if (!isObj(p)) throw bad(`a list merged by "${key}" must contain objects, found ${JSON.stringify(p)}`);
    if (!('$patch' in p)) {
      regular.push(p);
      continue;
    }
    switch (p.$patch) {
      case 'delete':
        if (!hasOwn(p, key)) throw bad('delete patch type with no merge key defined');
        base = base.filter((o) => !(isObj(o) && getOwn(o, key) === p[key]));
        break;
      case 'replace':
        replace = true;
        break;
      case 'merge':
        throw bad('merging lists cannot yet be specified in the patch');
      default:
        throw bad(`unknown patch type: ${String(p.$patch)} in map: ${JSON.stringify(p)}`);
    }
  }
  // `$patch: replace` on any item replaces the whole list with the other items.
  if (replace) base = [];
  for (const p of regular) {
    const value = getOwn(p, key);
    if (value === undefined || value === null) throw bad(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
    const at = base.findIndex((o) => isObj(o) && getOwn(o, key) === value);
    if (at >= 0) base[at] = mergeMap(base[at] as Obj, p, schema?.items);
    else base.push(mergeMap({}, p, schema?.items));
  }
  if (replace) return base;
  return applyOrder(base, order ?? regular, orig, identityFor(schema));
}

/** Stable sort of `items` by the position of their identity in `order`; unknown items go last. */
function sortBy(items: unknown[], order: unknown[], id: Identity): unknown[] {
  const index = new Map<unknown, number>();
  order.forEach((o, i) => { if (!index.has(id(o))) index.set(id(o), i); });
  const pos = (x: unknown): number => index.get(id(x)) ?? Number.MAX_SAFE_INTEGER;
  return [...items].sort((a, b) => pos(a) - pos(b));
}

/**
 * Items named by the patch come in patch order; the others keep their live order and are slotted
 * in front of the first patched item that comes after them in the live list.
 */
export function applyOrder(merged: unknown[], patchOrder: unknown[], serverOrder: unknown[], id: Identity): unknown[] {
  const named = new Set(patchOrder.map(id));
  const patched = sortBy(merged.filter((m) => named.has(id(m))), patchOrder, id);
  const serverOnly = sortBy(merged.filter((m) => !named.has(id(m))), serverOrder, id);
  const livePos = new Map<unknown, number>();
  serverOrder.forEach((o, i) => { if (!livePos.has(id(o))) livePos.set(id(o), i); });
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patched.length) {
    if (j >= patched.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(patched[j++]);
    else {
      const left = livePos.get(id(serverOnly[i]));
      const right = livePos.get(id(patched[j]));
      if (left !== undefined && right !== undefined && left < right) out.push(serverOnly[i++]);
      else out.push(patched[j++]);
    }
  }
  return out;
}

/** The patch list's items (deletions and directives aside) must appear in `$setElementOrder` in the same order. */
export function checkOrderConsistency(patchList: unknown[], order: unknown[], id: Identity): void {
  let j = 0;
  for (const item of patchList) {
    if (isObj(item) && '$patch' in item) continue;
    const want = id(item);
    while (j < order.length && id(order[j]) !== want) j++;
    if (j >= order.length) {
      throw bad(`the order in patch list ${JSON.stringify(patchList)} doesn't match $setElementOrder list ${JSON.stringify(order)}`);
    }
    j++;
  }
}
