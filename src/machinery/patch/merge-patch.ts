/**
 * RFC 7386 JSON Merge Patch (`application/merge-patch+json`): objects merge recursively, `null`
 * deletes a member, anything else (arrays included) replaces. Used by kubectl label/annotate/scale
 * and by client-side apply of custom resources.
 */
import { clone, deepEqual } from '../deep-equal.js';
import { getOwn, setOwn, type JsonObject } from './own-props.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges `patch` into `target` in place (both already private copies). */
function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? target : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else setOwn(out, k, mergeInto(getOwn(out, k), v));
  }
  return out;
}

/** Applies a merge patch to a copy of `doc`; neither argument is modified or shared with the result. */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  return mergeInto(clone(doc), clone(patch));
}

/**
 * The merge patch that turns `original` into `modified` (two-way, no three-way deletions).
 * Note a merge patch cannot set a member to null: a null in `modified` becomes a deletion.
 */
export function createMergePatch(original: unknown, modified: unknown): unknown {
  if (!isObject(original) || !isObject(modified)) return clone(modified);
  const patch: JsonObject = {};
  for (const [k, v] of Object.entries(original)) {
    if (v !== undefined && getOwn(modified, k) === undefined) setOwn(patch, k, null);
  }
  for (const [k, v] of Object.entries(modified)) {
    const before = getOwn(original, k);
    if (v === undefined || deepEqual(before, v)) continue;
    setOwn(patch, k, isObject(before) && isObject(v) ? createMergePatch(before, v) : clone(v));
  }
  return patch;
}
