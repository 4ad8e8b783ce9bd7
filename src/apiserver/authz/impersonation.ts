/**
 * Impersonation headers, as kube-apiserver's WithImpersonation filter reads them
 * (docs/design/authorization.md §6): each requested user, service account, group, extra and uid is
 * authorized with the `impersonate` verb for the requester, and the request then runs as the
 * impersonated user. No header means nothing to do.
 */
import type { UserInfo } from '../../api/request.js';
import { errors } from '../../machinery/errors.js';
import type { ResourceAttributes } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { forbiddenError } from './forbidden.js';
import { serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername } from './subjects.js';

const userHeader = 'impersonate-user';
const groupHeader = 'impersonate-group';
const uidHeader = 'impersonate-uid';
const extraPrefix = 'impersonate-extra-';
const anonymous = 'system:anonymous';

type Target = Pick<ResourceAttributes, 'group' | 'resource' | 'subresource' | 'namespace' | 'name'>;

export function hasImpersonation(headers: Record<string, string | undefined>): boolean {
  for (const name of Object.keys(headers)) if (name.startsWith('impersonate-') && headers[name]) return true;
  return false;
}

/** The user the request runs as; throws 403 (or 500, as kube, for groups without a user). */
export function impersonate(requester: UserInfo, headers: Record<string, string | undefined>, authorizer: Authorizer): UserInfo {
  const requestedUser = headers[userHeader] ?? '';
  const requestedGroups = headerValues(headers[groupHeader]);
  const extra: Record<string, string[]> = {};
  const targets: Target[] = [];
  let username = '';
  let groups: string[] = [];
  const sa = splitServiceAccountUsername(requestedUser);
  if (sa) {
    targets.push(core('serviceaccounts', sa.name, sa.namespace));
    username = serviceAccountUsername(sa.namespace, sa.name);
    if (requestedGroups.length === 0) groups = serviceAccountGroups(sa.namespace);
  } else if (requestedUser) {
    targets.push(core('users', requestedUser));
    username = requestedUser;
  }
  for (const group of requestedGroups) {
    targets.push(core('groups', group));
    groups.push(group);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith(extraPrefix) || value === undefined) continue;
    const key = unescapeExtraKey(name.slice(extraPrefix.length).toLowerCase());
    for (const v of headerValues(value)) {
      targets.push({ group: 'authentication.k8s.io', resource: 'userextras', subresource: key, namespace: '', name: v });
      (extra[key] ??= []).push(v);
    }
  }
  const uid = headers[uidHeader] ?? '';
  if (uid) targets.push({ group: 'authentication.k8s.io', resource: 'uids', subresource: '', namespace: '', name: uid });
  if (!requestedUser) throw errors.internal('requested impersonation without impersonating a user');
  for (const target of targets) {
    const attrs: ResourceAttributes = { isResource: true, user: requester, verb: 'impersonate', version: '', ...target };
    const decision = authorizer.authorize(attrs);
    if (decision.decision !== 'allow') throw forbiddenError(attrs, decision.reason);
  }
  return { username, ...(uid ? { uid } : {}), groups: withAllGroup(username, groups), ...(Object.keys(extra).length ? { extra } : {}) };
}

/** Every impersonated user but anonymous is `system:authenticated` unless told it is unauthenticated. */
function withAllGroup(username: string, groups: string[]): string[] {
  if (username === anonymous) return groups.includes('system:unauthenticated') ? groups : [...groups, 'system:unauthenticated'];
  if (groups.includes('system:authenticated') || groups.includes('system:unauthenticated')) return groups;
  return [...groups, 'system:authenticated'];
}

function core(resource: string, name: string, namespace = ''): Target {
  return { group: '', resource, subresource: '', namespace, name };
}

/** Repeated headers arrive joined with ", " (HTTP/1.1 folding and our HTTP/2 join alike). */
function headerValues(value: string | undefined): string[] {
  return value ? value.split(/,\s*/).filter((v) => v !== '') : [];
}

/** Extra keys are percent-encoded in header names (kube's unescapeExtraKey); a bad escape is kept as is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
