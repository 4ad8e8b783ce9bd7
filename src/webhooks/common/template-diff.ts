/**
 * The JSON-patch operations between two JSON values (objects by key, arrays by index), enough to
 * tell which parts of a pod template changed: InPlaceOnly updates may only replace container images.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { isObject } from '../../machinery/json.js';

export interface PatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function diffOps(from: unknown, to: unknown, path = ''): PatchOp[] {
  if (deepEqual(from, to)) return [];
  if (isObject(from) && isObject(to)) {
    const ops: PatchOp[] = [];
    for (const key of Object.keys(from)) {
      if (from[key] === undefined) continue;
      if (to[key] === undefined) ops.push({ op: 'remove', path: `${path}/${escape(key)}` });
      else ops.push(...diffOps(from[key], to[key], `${path}/${escape(key)}`));
    }
    for (const key of Object.keys(to)) {
      if (to[key] !== undefined && from[key] === undefined) ops.push({ op: 'add', path: `${path}/${escape(key)}` });
    }
    return ops;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const ops: PatchOp[] = [];
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) ops.push(...diffOps(from[i], to[i], `${path}/${i}`));
    for (let i = common; i < to.length; i++) ops.push({ op: 'add', path: `${path}/${i}` });
    for (let i = from.length - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    return ops;
  }
  return [{ op: 'replace', path }];
}

const imagePath = /^\/containers\/\d+\/image$/;

/** The first change between two pod specs that is not a container image replacement, as "op path". */
export function nonImageChange(oldSpec: unknown, newSpec: unknown): string | undefined {
  const op = diffOps(oldSpec ?? {}, newSpec ?? {}).find((p) => p.op !== 'replace' || !imagePath.test(p.path));
  return op ? `${op.op} ${op.path}` : undefined;
}
