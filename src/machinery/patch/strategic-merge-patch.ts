/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds, following
 * apimachinery's strategicpatch as kube-apiserver runs it: maps merge, `null` deletes, lists merge by
 * the schema's strategy, and the directives `$patch`, `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` are honoured and never left in the result. Errors are 400.
 */
import { clone } from '../deep-equal.js';
import { getOwn, setOwn } from './own-props.js';
import { childSchema, type PatchSchema } from './patch-schema.js';
import {
  bad, checkOrderConsistency, identityFor, isObj, mergeList, type Obj,
} from './smp-lists.js';

export type { ListType, PatchSchema } from './patch-schema.js';
export { listTypeAt, listMapKeys, schemaAt } from './patch-schema.js';

const ORDER_PREFIX = '$setElementOrder/';
const DELETE_PREFIX = '$deleteFromPrimitiveList/';

const goKind = (v: unknown): string =>
  (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v);

/** Applies a strategic merge patch to a copy of `doc`; neither argument is modified. */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, schema: PatchSchema): unknown {
  if (!isObj(patch)) {
    throw bad(`json: cannot unmarshal ${goKind(patch)} into Go value of type map[string]interface {}`);
  }
  return mergeMap(isObj(doc) ? clone(doc) : {}, clone(patch), schema);
}

/** Merges into `orig` in place; both arguments are private copies that may be consumed. */
function mergeMap(orig: Obj, patch: Obj, schema: PatchSchema | undefined): Obj {
  if ('$patch' in patch) {
    const { $patch: directive, ...rest } = patch;
    if (directive === 'delete') return {};
    if (directive === 'replace') return mergeMap({}, rest, schema);
    throw bad(`unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  }
  if ('$retainKeys' in patch) applyRetainKeys(orig, patch);
  for (const key of Object.keys(patch)) {
    if (key.startsWith(DELETE_PREFIX)) deleteFromPrimitiveList(orig, patch, key);
  }
  for (const key of Object.keys(patch)) {
    if (key.startsWith(ORDER_PREFIX)) mergeOrderedList(orig, patch, key, schema);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete orig[key];
    else setOwn(orig, key, mergeValue(getOwn(orig, key), value, childSchema(schema, key)));
  }
  return orig;
}

function mergeValue(orig: unknown, patch: unknown, schema: PatchSchema | undefined): unknown {
  if (isObj(patch)) return mergeMap(isObj(orig) ? orig : {}, patch, schema);
  if (Array.isArray(patch)) return mergeList(Array.isArray(orig) ? orig : [], patch, schema, mergeMap);
  return patch;
}

/** `$retainKeys`: keys of the live map not listed are cleared; the patch may only set listed keys. */
function applyRetainKeys(orig: Obj, patch: Obj): void {
  const keys = patch.$retainKeys;
  delete patch.$retainKeys;
  if (!Array.isArray(keys)) throw bad('invalid patch format of retainKeys');
  const keep = new Set(keys);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_PREFIX) || key.startsWith(ORDER_PREFIX)) continue;
    if (!keep.has(key)) throw bad(`invalid patch format of retainKeys: ${JSON.stringify(key)} is not in the $retainKeys list`);
  }
  for (const key of Object.keys(orig)) if (!keep.has(key)) delete orig[key];
}

function deleteFromPrimitiveList(orig: Obj, patch: Obj, directive: string): void {
  const values = patch[directive];
  delete patch[directive];
  if (!Array.isArray(values)) throw bad('invalid patch format of primitive list');
  const name = directive.slice(DELETE_PREFIX.length);
  const live = getOwn(orig, name);
  if (Array.isArray(live)) setOwn(orig, name, live.filter((v) => !values.includes(v)));
}

/** `$setElementOrder/<list>`: merge the list (if patched) and impose the given order. */
function mergeOrderedList(orig: Obj, patch: Obj, directive: string, schema: PatchSchema | undefined): void {
  const order = patch[directive];
  delete patch[directive];
  if (!Array.isArray(order)) throw bad('invalid patch format of setElementOrder list');
  const name = directive.slice(ORDER_PREFIX.length);
  const child = childSchema(schema, name);
  // Ordering only means something for merging lists; an atomic list is simply replaced.
  if (!child?.list || child.list.kind === 'atomic') return;
  const patchList = getOwn(patch, name);
  if (patchList === null) return;
  if (patchList !== undefined && !Array.isArray(patchList)) throw bad(`invalid patch: ${name} must be a list`);
  const current = getOwn(orig, name);
  const live = Array.isArray(current) ? current : undefined;
  if (!live && patchList === undefined) return;
  checkOrderConsistency(patchList ?? [], order, identityFor(child));
  setOwn(orig, name, mergeList(live ?? [], patchList ?? [], child, mergeMap, order));
  delete patch[name];
}
