/**
 * RFC 6902 JSON Patch (`application/json-patch+json`). A malformed patch document is 400 BadRequest;
 * an operation that cannot apply (missing path, failed `test`, index out of range) is 422 Invalid,
 * as kube-apiserver answers, with a message naming the operation and path.
 */
import { clone, deepEqual } from '../deep-equal.js';
import { errors, StatusError } from '../errors.js';
import { hasOwn, setOwn } from './own-props.js';

type Json = unknown;
type Container = Record<string, Json> | Json[];
type OpName = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

interface Operation {
  op: OpName;
  path: string[];
  rawPath: string;
  from?: string[];
  rawFrom?: string;
  value?: Json;
}

/** kube-apiserver's cap on operations per patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

const OPS = new Set<OpName>(['add', 'remove', 'replace', 'move', 'copy', 'test']);
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

const unprocessable = (message: string, path: string): StatusError =>
  new StatusError(422, 'Invalid', message, { causes: [{ reason: 'FieldValueInvalid', message, field: path }] });

function parsePointer(pointer: string, where: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw errors.badRequest(`invalid JSON pointer ${JSON.stringify(pointer)} in ${where}: must be empty or start with '/'`);
  return pointer.slice(1).split('/').map((t) => {
    if (/~[^01]|~$/.test(t)) throw errors.badRequest(`invalid JSON pointer ${JSON.stringify(pointer)} in ${where}: bad '~' escape`);
    return t.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

function decodeOperations(ops: Json): Operation[] {
  if (!Array.isArray(ops)) throw errors.badRequest('invalid JSON patch: the body must be a JSON array of operations');
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw errors.requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops.map((raw, i) => {
    const where = `operation ${i}`;
    if (!isObject(raw)) throw errors.badRequest(`invalid JSON patch: ${where} is not an object`);
    const op = raw.op as OpName;
    if (typeof op !== 'string' || !OPS.has(op)) throw errors.badRequest(`invalid JSON patch: ${where} has unknown op ${JSON.stringify(raw.op)}`);
    if (typeof raw.path !== 'string') throw errors.badRequest(`invalid JSON patch: ${where} (${op}) has no string "path"`);
    const decoded: Operation = { op, rawPath: raw.path, path: parsePointer(raw.path, where) };
    if (op === 'move' || op === 'copy') {
      if (typeof raw.from !== 'string') throw errors.badRequest(`invalid JSON patch: ${where} (${op}) has no string "from"`);
      decoded.rawFrom = raw.from;
      decoded.from = parsePointer(raw.from, where);
    }
    if (op === 'add' || op === 'replace' || op === 'test') {
      if (!('value' in raw)) throw errors.badRequest(`invalid JSON patch: ${where} (${op}) has no "value"`);
      decoded.value = raw.value;
    }
    return decoded;
  });
}

const missing = (op: string, path: string): StatusError =>
  unprocessable(`${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`, path);

/** Index of an existing array element (`-` and leading zeros are not element references). */
function arrayIndex(arr: Json[], token: string, op: string, path: string, allowEnd: boolean): number {
  if (token === '-' && allowEnd) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw unprocessable(`${op} operation does not apply: invalid array index ${JSON.stringify(token)} in path ${JSON.stringify(path)}`, path);
  const idx = Number(token);
  if (idx > arr.length || (idx === arr.length && !allowEnd)) {
    throw unprocessable(`${op} operation does not apply: index ${idx} out of range in path ${JSON.stringify(path)}`, path);
  }
  return idx;
}

function parentOf(doc: Json, tokens: string[], op: string, path: string): Container {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, op, path, false)];
    else if (isObject(cur) && hasOwn(cur, t)) cur = cur[t];
    else throw missing(op, path);
  }
  if (!Array.isArray(cur) && !isObject(cur)) throw missing(op, path);
  return cur;
}

function getValue(doc: Json, tokens: string[], op: string, path: string): Json {
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, op, path, false)];
  if (!hasOwn(parent, last)) throw missing(op, path);
  return parent[last];
}

/** Adds (or for `replace`, overwrites an existing member); returns the new document root. */
function setValue(doc: Json, tokens: string[], value: Json, op: string, path: string, insert: boolean): Json {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const idx = arrayIndex(parent, last, op, path, insert);
    parent.splice(idx, insert ? 0 : 1, value);
  } else {
    if (!insert && !hasOwn(parent, last)) throw missing(op, path);
    setOwn(parent, last, value);
  }
  return doc;
}

function removeValue(doc: Json, tokens: string[], op: string, path: string): Json {
  if (tokens.length === 0) throw unprocessable(`${op} operation does not apply: cannot remove the document root`, path);
  const value = getValue(doc, tokens, op, path);
  const parent = parentOf(doc, tokens, op, path);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return value;
}

function applyOne(doc: Json, o: Operation): Json {
  switch (o.op) {
    case 'add': return setValue(doc, o.path, clone(o.value), 'add', o.rawPath, true);
    case 'replace': return setValue(doc, o.path, clone(o.value), 'replace', o.rawPath, false);
    case 'remove': removeValue(doc, o.path, 'remove', o.rawPath); return doc;
    case 'copy': return setValue(doc, o.path, clone(getValue(doc, o.from!, 'copy', o.rawFrom!)), 'copy', o.rawPath, true);
    case 'move': {
      if (o.rawPath.startsWith(`${o.rawFrom}/`)) {
        throw unprocessable(`move operation does not apply: "from" ${JSON.stringify(o.rawFrom)} is a prefix of "path" ${JSON.stringify(o.rawPath)}`, o.rawPath);
      }
      if (o.rawFrom === o.rawPath) return doc;
      const value = removeValue(doc, o.from!, 'move', o.rawFrom!);
      return setValue(doc, o.path, value, 'move', o.rawPath, true);
    }
    case 'test':
      if (!deepEqual(getValue(doc, o.path, 'test', o.rawPath), o.value)) {
        throw unprocessable(`testing value ${o.rawPath} failed: test failed`, o.rawPath);
      }
      return doc;
  }
}

/** Applies an RFC 6902 patch to a copy of `doc`; neither argument is modified. */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  const decoded = decodeOperations(ops);
  let result = clone(doc);
  for (const o of decoded) result = applyOne(result, o);
  return result;
}
