/**
 * Parses a request path into what it addresses, like kube-apiserver's RequestInfoFactory:
 * `/api/v1/namespaces/ns/pods/name/status` -> group '', version v1, namespace ns, resource pods, ...
 */
import { errors } from '../../machinery/errors.js';

export interface ResourceRequestInfo {
  isResource: true;
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** get, list, watch, create, update, patch, delete, deletecollection, or a subresource's verb. */
  verb: string;
}

export interface NonResourceRequestInfo {
  isResource: false;
  path: string;
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

const methodVerbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const parts = path.split('/').filter((p) => p !== '').map(decodePathSegment);
  const nonResource: NonResourceRequestInfo = { isResource: false, path, verb: (methodVerbs[method] ?? method.toLowerCase()) };
  let rest: string[];
  let group = '';
  if (parts[0] === 'api' && parts.length >= 2) {
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  const version = parts[0] === 'api' ? parts[1] : parts[2];
  if (rest.length === 0) return nonResource; // group-version discovery document
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  } else if (rest[0] === 'namespaces' && rest.length === 2) {
    // /api/v1/namespaces/<name> addresses the namespace object itself
    namespace = undefined;
  }
  const [resource, name, subresource] = rest;
  if (rest.length > 3) return nonResource;
  if (namespace !== undefined && resource === undefined) return nonResource;
  let verb = methodVerbs[method] ?? method.toLowerCase();
  if (!name) {
    if (verb === 'get') verb = isWatch(query) ? 'watch' : 'list';
    else if (verb === 'delete') verb = 'deletecollection';
  } else if (verb === 'get' && isWatch(query)) {
    verb = 'watch';
  }
  return { isResource: true, group, version, namespace, resource, name, subresource, verb };
}

export function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === 'true' || w === '1';
}

/**
 * Percent-decoding as Go's net/http does it: a malformed escape (`%zz`) is a 400; an escape of bytes
 * that are not UTF-8 (`%ff`) decodes, with U+FFFD for the bad bytes (then usually a 404).
 */
function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  if (/%(?![0-9a-fA-F]{2})/.test(segment)) throw errors.badRequest(`invalid URL escape in path segment ${JSON.stringify(segment)}`);
  try {
    return decodeURIComponent(segment);
  } catch {
    const bytes = segment.replace(/%([0-9a-fA-F]{2})|[^%]+/g, (m, hex: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : Buffer.from(m, 'utf8').toString('latin1')));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
}
