/**
 * Binding subjects: which of a binding's subjects a user is (kube's appliesTo), how a denial or an
 * allowance names it, and the index keys a subject is found under (docs/design/authorization.md §4).
 */
import type { UserInfo } from '../../api/request.js';

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export const serviceAccountPrefix = 'system:serviceaccount:';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountPrefix}${namespace}:${name}`;
}

/** `system:serviceaccount:<ns>:<name>` split, or undefined for other usernames. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/**
 * The key a subject is indexed under: users and service accounts by username, groups by name.
 * A ServiceAccount without a namespace takes the binding's (none for ClusterRoleBindings: it never applies).
 */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User': return `user:${subject.name}`;
    case 'Group': return `group:${subject.name}`;
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace ? `user:${serviceAccountUsername(namespace, subject.name)}` : undefined;
    }
    default: return undefined;
  }
}

/** Every key a user's bindings may be indexed under. */
export function userKeys(user: UserInfo): string[] {
  return [`user:${user.username}`, ...user.groups.map((g) => `group:${g}`)];
}

/** The index of the first subject that is this user, or -1 (kube visits a binding once, for that subject). */
export function appliesTo(user: UserInfo, subjects: Subject[], bindingNamespace: string): number {
  return subjects.findIndex((s) => {
    const key = subjectKey(s, bindingNamespace);
    return key !== undefined && (key === `user:${user.username}` || (s.kind === 'Group' && user.groups.includes(s.name)));
  });
}

/** `User "jane"`, `ServiceAccount "sa/ns"`: how kube's describeSubject names a subject in reasons. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} ${JSON.stringify(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}
