/**
 * FieldSet: a set of field paths kept as a tree, the model behind managedFields. Path elements are
 * stored in their fieldsV1 spelling: `f:<field>`, `k:{"key":value}` for an item of a map list,
 * `v:<json>` for an item of a set list. Sets are immutable once built: operations never change
 * their operands and may return one of them unchanged.
 */
import { isObject } from '../../api/meta.js';
import type { ListType, TypeHints } from './type-hints.js';

export class FieldSet {
  /** Whether the path that leads to this node is itself in the set. */
  member = false;
  /** Never holds empty sets. */
  children: Map<string, FieldSet> | undefined;

  isEmpty(): boolean {
    return !this.member && (this.children === undefined || this.children.size === 0);
  }

  child(element: string): FieldSet | undefined {
    return this.children?.get(element);
  }

  /** Adds a non-empty child (construction only). */
  setChild(element: string, set: FieldSet): void {
    if (set.isEmpty()) return;
    (this.children ??= new Map()).set(element, set);
  }

  /** Adds one path (construction only). */
  insert(path: readonly string[]): void {
    let node: FieldSet = this;
    for (const el of path) {
      let next = node.children?.get(el);
      if (!next) (node.children ??= new Map()).set(el, (next = new FieldSet()));
      node = next;
    }
    node.member = true;
  }

  has(path: readonly string[]): boolean {
    let node: FieldSet | undefined = this;
    for (const el of path) node = node?.children?.get(el);
    return node?.member ?? false;
  }

  /** `this` itself when `other` adds nothing (a writer that sets the fields it owns already). */
  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const member = this.member || other.member;
    let kids: Map<string, FieldSet> | undefined;
    for (const [el, oc] of other.children ?? []) {
      const c = this.children?.get(el);
      const u = c ? c.union(oc) : oc;
      if (u !== c) (kids ??= new Map(this.children)).set(el, u);
    }
    if (!kids && member === this.member) return this;
    const out = new FieldSet();
    out.member = member;
    out.children = kids ?? this.children;
    return out;
  }

  /** The paths of this set that are not in `other`; `this` itself when nothing is taken away. */
  difference(other: FieldSet): FieldSet {
    if (this.isEmpty() || other.isEmpty()) return this;
    const member = this.member && !other.member;
    let kids: Map<string, FieldSet> | undefined;
    let changed = member !== this.member;
    if (this.children && other.children) {
      for (const [el, c] of this.children) {
        const oc = other.children.get(el);
        const d = oc ? c.difference(oc) : c;
        if (d !== c) changed = true;
        if (!d.isEmpty()) (kids ??= new Map()).set(el, d);
      }
    } else kids = this.children;
    if (!changed) return this;
    const out = new FieldSet();
    out.member = member;
    out.children = kids;
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    if (this.children && other.children) {
      const [small, big] = this.children.size <= other.children.size ? [this.children, other.children] : [other.children, this.children];
      for (const [el, c] of small) {
        const oc = big.get(el);
        if (oc) out.setChild(el, c.intersection(oc));
      }
    }
    return out;
  }

  /** Every member path, in upstream order (fields, then keyed items, then values). */
  paths(): string[][] {
    const out: string[][] = [];
    const walk = (node: FieldSet, prefix: string[]): void => {
      if (node.member && prefix.length > 0) out.push(prefix);
      if (node.children) for (const el of sortedElements(node.children)) walk(node.children.get(el)!, [...prefix, el]);
    };
    walk(this, []);
    return out;
  }
}

/** The fieldsV1 element of one list item, or undefined when the item cannot be identified. */
export function listItemElement(item: unknown, lt: ListType): string | undefined {
  if (lt.type === 'set') return 'v:' + canonicalJson(item);
  if (!isObject(item) || !lt.keys?.length) return undefined;
  let out = '';
  for (const [key, quoted] of sortedKeys(lt)) {
    const v = item[key] ?? lt.keyDefaults?.[key];
    if (v === undefined) continue;
    out += (out ? ',' : '') + quoted + ':' + (typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v));
  }
  return out ? 'k:{' + out + '}' : undefined;
}

/** Key names sorted, with their JSON spelling, per list type. */
const sortedKeyCache = new WeakMap<ListType, [string, string][]>();
function sortedKeys(lt: ListType): [string, string][] {
  let keys = sortedKeyCache.get(lt);
  if (!keys) sortedKeyCache.set(lt, (keys = [...(lt.keys ?? [])].sort().map((k) => [k, JSON.stringify(k)])));
  return keys;
}

/** Compact JSON with object keys sorted, as upstream writes key and value elements. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  if (isObject(v)) {
    return '{' + Object.keys(v).filter((k) => v[k] !== undefined).sort()
      .map((k) => JSON.stringify(k) + ':' + canonicalJson(v[k])).join(',') + '}';
  }
  return JSON.stringify(v ?? null);
}

/**
 * The leaf fields an object sets: scalars, nulls, empty maps, atomic maps and lists; map-list
 * items by key and set-list items by value are themselves members (upstream ToFieldSet).
 * With `allMembers`, every node counts (how a wholly added or removed subtree is recorded).
 */
export function fieldSetFromObject(obj: unknown, hints: TypeHints, allMembers = false): FieldSet {
  const root = new FieldSet();
  if (isObject(obj)) walkMap(obj, root, [], hints, allMembers);
  return root;
}

/** Like fieldSetFromObject, for a value found at `path` (field names, list items elided). */
export function fieldSetFromValue(value: unknown, path: string[], hints: TypeHints, allMembers: boolean): FieldSet {
  const node = new FieldSet();
  if (allMembers) node.member = true;
  if (Array.isArray(value)) walkList(value, node, path, hints, allMembers);
  else if (isObject(value) && !isEmptyMap(value) && !hints.mapAtomic?.(path)) walkMap(value, node, path, hints, allMembers);
  else node.member = true;
  return node;
}

function walkMap(m: Record<string, unknown>, node: FieldSet, path: string[], hints: TypeHints, all: boolean): void {
  const inMetadata = path.length === 1 && path[0] === 'metadata';
  for (const key in m) {
    const v = m[key];
    if (v === undefined || (inMetadata && key === 'managedFields')) continue;
    path.push(key);
    node.setChild('f:' + key, fieldSetFromValue(v, path, hints, all));
    path.pop();
  }
}

function walkList(list: unknown[], node: FieldSet, path: string[], hints: TypeHints, all: boolean): void {
  const lt = hints.listType(path);
  if (!lt || lt.type === 'atomic' || (lt.type === 'map' && !lt.keys?.length)) {
    node.member = true;
    return;
  }
  for (const item of list) {
    const el = listItemElement(item, lt);
    if (el === undefined) continue;
    const itemSet = new FieldSet();
    itemSet.member = true;
    if (lt.type === 'map' && isObject(item)) walkMap(item, itemSet, path, hints, all);
    node.setChild(el, itemSet);
  }
}

export function isEmptyMap(m: Record<string, unknown>): boolean {
  for (const k in m) if (m[k] !== undefined) return false;
  return true;
}

/** fieldsV1 JSON of a set: `{}` for a leaf, `".": {}` when a node with children is itself a member. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!set.children) return out;
  if (set.member) out['.'] = {};
  for (const el of sortedElements(set.children)) out[el] = toFieldsV1(set.children.get(el)!);
  return out;
}

export function fromFieldsV1(fieldsV1: unknown): FieldSet {
  const node = new FieldSet();
  if (!isObject(fieldsV1)) return node;
  for (const key in fieldsV1) {
    if (key === '.') {
      node.member = true;
      continue;
    }
    const child = fromFieldsV1(fieldsV1[key]);
    if (!child.children) child.member = true;
    (node.children ??= new Map()).set(key, child);
  }
  return node;
}

export function sortedElements(children: Map<string, FieldSet>): string[] {
  const els: string[] = [];
  for (const el of children.keys()) els.push(el);
  if (els.length > 24) return els.sort(compareElements);
  // Insertion sort: the builtin's per-call cost dominates for the few children a node has.
  for (let i = 1; i < els.length; i++) {
    const el = els[i];
    let j = i - 1;
    while (j >= 0 && compareElements(els[j], el) > 0) els[j + 1] = els[j--];
    els[j + 1] = el;
  }
  return els;
}

const rank: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** Upstream PathElement order: field names, then keys, then values, then indices. */
export function compareElements(a: string, b: string): number {
  if (a[0] === 'f' && b[0] === 'f') return a < b ? -1 : a > b ? 1 : 0;
  const ra = rank[a[0]] ?? 4;
  const rb = rank[b[0]] ?? 4;
  if (ra !== rb) return ra - rb;
  if (ra === 1 || ra === 2) {
    const pa = parseJson(a.slice(2));
    const pb = parseJson(b.slice(2));
    if (pa.ok && pb.ok) {
      const c = ra === 1 ? compareKeys(pa.value, pb.value) : compareValues(pa.value, pb.value);
      if (c !== 0) return c;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function parseJson(s: string): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

function compareKeys(a: unknown, b: unknown): number {
  const ea = isObject(a) ? Object.entries(a) : [];
  const eb = isObject(b) ? Object.entries(b) : [];
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
    if (ea[i][0] !== eb[i][0]) return ea[i][0] < eb[i][0] ? -1 : 1;
    const c = compareValues(ea[i][1], eb[i][1]);
    if (c !== 0) return c;
  }
  return ea.length - eb.length;
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  return isObject(v) ? 4 : 5;
}

/** Upstream value order: numbers < strings < booleans < lists < maps < null. */
function compareValues(a: unknown, b: unknown): number {
  const ta = typeRank(a);
  const tb = typeRank(b);
  if (ta !== tb) return ta - tb;
  if (ta <= 2) return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
  const sa = canonicalJson(a);
  const sb = canonicalJson(b);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

/** A path as upstream prints it in conflicts: `.spec.containers[name="a"].image`, `[="x"]`. */
export function pathString(path: readonly string[]): string {
  let out = '';
  for (const el of path) {
    const body = el.slice(2);
    const parsed = el[0] === 'k' || el[0] === 'v' ? parseJson(body) : { ok: false };
    if (el[0] === 'f') out += '.' + body;
    else if (el[0] === 'k' && parsed.ok && isObject(parsed.value)) {
      out += '[' + Object.entries(parsed.value).map(([k, v]) => `${k}=${valueString(v)}`).join(',') + ']';
    } else if (el[0] === 'v' && parsed.ok) out += '[=' + valueString(parsed.value) + ']';
    else out += '[' + body + ']';
  }
  return out;
}

function valueString(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v);
}
