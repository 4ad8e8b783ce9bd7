/** GET and LIST: conversion to the requested version, selectors, limit/continue pagination. */
import type { KList, KObject } from '../../api/meta.js';
import { errors, StatusError } from '../../machinery/errors.js';
import type { RegistryCore } from './core.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { collectionPrefix, objectKey } from './keys.js';
import { buildMatcher, type Selection } from './selection.js';
import { applySchemaDefaults } from './validate.js';

export interface ListOptions extends Selection {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export async function getObject(core: RegistryCore, r: ServedResource, namespace: string | undefined, name: string): Promise<KObject> {
  const stored = core.store.get(objectKey(r, namespace, name));
  if (!stored) throw errors.notFound(r.definition.plural, name, r.definition.group);
  return present(r, stored.object);
}

/** A stored object as the client asked for it: converted, with schema defaults applied on read. */
export async function present(r: ServedResource, stored: KObject): Promise<KObject> {
  const obj = await r.convert(stored, apiVersionOf(r.definition));
  if (!r.schemaIsAuthoritative || !r.schema) return obj;
  const copy = structuredClone(obj);
  applySchemaDefaults(r, copy);
  return copy;
}

interface ContinueToken { rv: number; start: string }

function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') throw new Error('bad token');
    return parsed;
  } catch {
    throw errors.badRequest('continue key is not valid: illegal base64 data or malformed token');
  }
}

export async function listObjects(core: RegistryCore, r: ServedResource, namespace: string | undefined, options: ListOptions): Promise<KList> {
  const matcher = buildMatcher(r, options);
  await checkListResourceVersion(core, options);
  let startAfter: string | undefined;
  let listRv: number | undefined;
  if (options.continue) {
    const token = decodeContinue(options.continue);
    if (token.rv < core.store.oldestWatchableRevision() - 1) {
      throw errors.expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    }
    startAfter = token.start;
    listRv = token.rv;
  }
  const limit = options.limit && options.limit > 0 ? options.limit : undefined;
  const prefix = collectionPrefix(r, namespace);
  const result = core.store.list(prefix, { startAfter: startAfter ? prefix + startAfter : undefined, limit, filter: matcher });
  const rv = listRv ?? result.rv;
  const items = await Promise.all(result.items.map((s) => present(r, s.object)));
  const list: KList = { apiVersion: apiVersionOf(r.definition), kind: r.definition.listKind, metadata: { resourceVersion: String(rv) }, items };
  if (limit && result.remaining > 0 && result.items.length > 0) {
    const last = result.items[result.items.length - 1].key.slice(prefix.length);
    list.metadata.continue = Buffer.from(JSON.stringify({ rv, start: last })).toString('base64url');
    list.metadata.remainingItemCount = result.remaining;
  }
  return list;
}

/** `resourceVersion=N` newer than the store cannot be served (kube-apiserver: 504 ResourceVersionTooLarge). */
async function checkListResourceVersion(core: RegistryCore, options: ListOptions): Promise<void> {
  const rvText = options.resourceVersion;
  if (!rvText || rvText === '0') return;
  const rv = Number(rvText);
  if (!Number.isInteger(rv) || rv < 0) throw errors.badRequest(`invalid resource version: ${rvText}`);
  if (options.resourceVersionMatch === 'Exact' && rv < core.store.oldestWatchableRevision() - 1) {
    throw errors.expired(`too old resource version: ${rv} (${core.store.oldestWatchableRevision()})`);
  }
  if (rv > core.store.revision()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (rv > core.store.revision()) {
      throw new StatusError(504, 'Timeout', `Too large resource version: ${rv}, current: ${core.store.revision()}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1,
      });
    }
  }
}
