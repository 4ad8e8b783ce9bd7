/**
 * Builds the wire request of every Client operation: method, path, query and JSON body. Both
 * clients send exactly these, so the HTTP and in-process paths cannot drift apart.
 */
import { apiVersionOfType, type ResourceType } from '../api/resource-type.js';
import type { KObject } from '../api/meta.js';
import { errors } from '../machinery/errors.js';
import type { DeleteOptions, ListOptions, PatchOptions, PatchType, WatchOptions, WriteOptions } from './client.js';

export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Percent-encoded, without the server's base path. */
  path: string;
  query: URLSearchParams;
  /** Content-Type of `body`, when there is one. */
  contentType?: string;
  body?: Buffer;
}

/** Sent by both clients unless told otherwise; the server derives the default field manager from it. */
export const defaultUserAgent = 'kruise-ts/0.1.0';

export const patchContentTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/**
 * `/api/v1/[namespaces/<ns>/]<resource>[/<name>[/<sub>]]` or the `/apis/<g>/<v>/...` form. The
 * namespace is ignored for cluster-scoped types and required (400) for named namespaced requests.
 */
export function resourcePath(type: ResourceType, namespace: string | undefined, name?: string, subresource?: string): string {
  const parts = [type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`];
  if (type.namespaced && namespace) parts.push('namespaces', encodeURIComponent(namespace));
  else if (type.namespaced && name !== undefined) throw errors.badRequest(`a namespace is required for namespaced resource ${type.resource}`);
  parts.push(type.resource);
  if (name !== undefined) {
    if (!name) throw errors.badRequest('resource name may not be empty');
    parts.push(encodeURIComponent(name));
  }
  if (subresource) parts.push(subresource);
  return parts.join('/');
}

function query(values: Record<string, string | number | boolean | undefined>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q;
}

const jsonBody = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

function writeQuery(o: WriteOptions = {}, force?: boolean): URLSearchParams {
  return query({ dryRun: o.dryRun ? 'All' : undefined, fieldManager: o.fieldManager, fieldValidation: o.fieldValidation, force: force ? true : undefined });
}

/** Typed clients encode apiVersion/kind; do the same when the caller left them out. */
function withTypeMeta(type: ResourceType, obj: KObject): KObject {
  return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOfType(type), kind: obj.kind ?? type.kind };
}

export function getRequest(type: ResourceType, namespace: string | undefined, name: string, subresource?: string): WireRequest {
  return { method: 'GET', path: resourcePath(type, namespace, name, subresource), query: new URLSearchParams() };
}

export function listRequest(type: ResourceType, o: ListOptions = {}): WireRequest {
  const q = query({ labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, limit: o.limit, continue: o.continue, resourceVersion: o.resourceVersion });
  return { method: 'GET', path: resourcePath(type, o.namespace), query: q };
}

export function watchRequest(type: ResourceType, o: WatchOptions): WireRequest {
  const q = query({
    labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, resourceVersion: o.resourceVersion,
    allowWatchBookmarks: o.allowWatchBookmarks ? true : undefined, timeoutSeconds: o.timeoutSeconds, watch: true,
  });
  return { method: 'GET', path: resourcePath(type, o.namespace), query: q };
}

export function createRequest(type: ResourceType, obj: KObject, o?: WriteOptions): WireRequest {
  const ns = obj.metadata?.namespace;
  if (type.namespaced && !ns) throw errors.badRequest(`a namespace is required for namespaced resource ${type.resource}`);
  return { method: 'POST', path: resourcePath(type, ns), query: writeQuery(o), contentType: 'application/json', body: jsonBody(withTypeMeta(type, obj)) };
}

export function updateRequest(type: ResourceType, obj: KObject, o?: WriteOptions, subresource?: string): WireRequest {
  const path = resourcePath(type, obj.metadata?.namespace, obj.metadata?.name ?? '', subresource);
  return { method: 'PUT', path, query: writeQuery(o), contentType: 'application/json', body: jsonBody(withTypeMeta(type, obj)) };
}

/** A string patch is sent as is (e.g. YAML for apply); anything else as JSON. */
export function patchRequest(type: ResourceType, namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, o: PatchOptions = {}): WireRequest {
  const body = typeof patch === 'string' ? Buffer.from(patch, 'utf8') : jsonBody(patch);
  const force = patchType === 'apply' ? o.force : undefined;
  return { method: 'PATCH', path: resourcePath(type, namespace, name, o.subresource), query: writeQuery(o, force), contentType: patchContentTypes[patchType], body };
}

export function deleteRequest(type: ResourceType, namespace: string | undefined, name: string, o: DeleteOptions = {}): WireRequest {
  const options = {
    kind: 'DeleteOptions', apiVersion: 'v1',
    gracePeriodSeconds: o.gracePeriodSeconds, propagationPolicy: o.propagationPolicy, preconditions: o.preconditions,
  };
  const q = query({ dryRun: o.dryRun ? 'All' : undefined });
  return { method: 'DELETE', path: resourcePath(type, namespace, name), query: q, contentType: 'application/json', body: jsonBody(options) };
}

export function subresourceRequest(type: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): WireRequest {
  return { method: 'POST', path: resourcePath(type, namespace, name, subresource), query: new URLSearchParams(), contentType: 'application/json', body: jsonBody(body) };
}
