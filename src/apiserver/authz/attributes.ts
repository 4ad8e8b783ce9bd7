/**
 * What an authorizer decides on: kube's authorizer.Attributes, derived from a request the way
 * kube-apiserver's RequestInfoFactory derives them (docs/design/authorization.md §2). Routing keeps
 * its own request info; these differ where kube's do (a namespace GET carries its own namespace,
 * non-resource verbs are the lower-cased method, `fieldSelector=metadata.name=x` names the object).
 */
import type { UserInfo } from '../../api/request.js';

export interface ResourceAttributes {
  isResource: true;
  user: UserInfo;
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** A list's or watch's field selector as sent (the Node mode reads `spec.nodeName`). */
  fieldSelector?: string;
}

export interface NonResourceAttributes {
  isResource: false;
  user: UserInfo;
  verb: string;
  path: string;
}

export type Attributes = ResourceAttributes | NonResourceAttributes;

/** Subresources of a namespace: `/namespaces/x/status` is namespace x's status, not a resource named status. */
const namespaceSubresources = new Set(['status', 'finalize']);
const methodVerbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

export function requestAttributes(user: UserInfo, method: string, path: string, query: URLSearchParams): Attributes {
  const parts = path.split('/').filter((p) => p !== '').map(safeDecode);
  const nonResource: NonResourceAttributes = { isResource: false, user, verb: method.toLowerCase(), path };
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  const [resource = '', name = '', subresource = ''] = rest;
  let verb = methodVerbs[method] ?? method.toLowerCase();
  const watching = query.get('watch') === 'true' || query.get('watch') === '1';
  if (!name && verb === 'get') verb = watching ? 'watch' : 'list';
  else if (name && verb === 'get' && watching) verb = 'watch';
  if (!name && verb === 'delete') verb = 'deletecollection';
  const attrs: ResourceAttributes = { isResource: true, user, verb, group, version, resource, subresource, namespace, name };
  if ((verb === 'list' || verb === 'watch') && !name) {
    attrs.name = nameFromFieldSelector(query.get('fieldSelector')) ?? '';
    if (query.has('fieldSelector')) attrs.fieldSelector = query.get('fieldSelector')!;
  }
  return attrs;
}

/** `metadata.name=x` (or `==`) as the only requirement on the name, as kube's RequestInfoFactory reads it. */
function nameFromFieldSelector(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1];
  }
  return undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
