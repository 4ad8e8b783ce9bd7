/**
 * What the authorization cases share: RBAC objects, requests made as another user (the admin
 * impersonating, or a ServiceAccount token), access reviews, and waiting until a server's
 * authorizer has seen a new binding (kube-apiserver's RBAC informers lag a write by milliseconds).
 */
import type { DiffApi, Json } from './api.js';
import { must, type CaseContext } from './case-kit.js';
import { statusOf, type Observation } from './normalize.js';

const rbac = 'rbac.authorization.k8s.io';
const rbacPath = (plural: string, ns?: string, name = '') =>
  `/apis/${rbac}/v1${ns ? `/namespaces/${ns}` : ''}/${plural}${name ? `/${name}` : ''}`;

export type Rule = { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
export type Subject = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

/** Impersonation headers the admin sends to act as `user` (with at most one group: Go splits no commas). */
export function as(user: string, group?: string): Record<string, string> {
  return group ? { 'impersonate-user': user, 'impersonate-group': group } : { 'impersonate-user': user };
}

/** A Role (with `ns`) or ClusterRole; `labels` and `aggregationRule` for aggregation cases. */
export async function role(api: DiffApi, ns: string | undefined, name: string, rules: Rule[], options: { labels?: Record<string, string>; aggregationRule?: Json } = {}): Promise<void> {
  const kind = ns ? 'Role' : 'ClusterRole';
  const metadata = options.labels ? { name, labels: options.labels } : { name };
  const body = { apiVersion: `${rbac}/v1`, kind, metadata, rules, ...(options.aggregationRule ? { aggregationRule: options.aggregationRule } : {}) };
  must(await api.request('POST', rbacPath(ns ? 'roles' : 'clusterroles', ns), body), `create ${kind} ${name}`);
}

export function clusterRolePath(name: string): string {
  return rbacPath('clusterroles', undefined, name);
}

/** A RoleBinding (with `ns`) or ClusterRoleBinding of `roleRef` ("Role/x" or "ClusterRole/x"). */
export async function bind(api: DiffApi, ns: string | undefined, name: string, roleRef: string, subjects: Subject[]): Promise<void> {
  const [kind, roleName] = roleRef.split('/');
  const body = {
    apiVersion: `${rbac}/v1`, kind: ns ? 'RoleBinding' : 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: rbac, kind, name: roleName },
    subjects: subjects.map((s) => (s.kind === 'ServiceAccount' ? s : { ...s, apiGroup: rbac })),
  };
  must(await api.request('POST', rbacPath(ns ? 'rolebindings' : 'clusterrolebindings', ns), body), `create binding ${name}`);
}

export interface ResourceAttributes { verb: string; resource: string; namespace?: string; group?: string; name?: string; subresource?: string }

/** A SelfSubjectAccessReview's status, made with `headers` (impersonation or a token). */
export async function canI(api: DiffApi, headers: Record<string, string>, attrs: ResourceAttributes | { path: string; verb: string }): Promise<Observation> {
  const spec = 'path' in attrs ? { nonResourceAttributes: attrs } : { resourceAttributes: attrs };
  const res = await api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec }, headers);
  return res.status === 201 ? res.body.status : statusOf(res);
}

/** Waits until `attrs` is allowed for `headers`: the server's authorizer has caught up with the bindings. */
export async function settle(api: DiffApi, ctx: CaseContext, headers: Record<string, string>, attrs: ResourceAttributes | { path: string; verb: string }): Promise<void> {
  await ctx.poll(() => canI(api, headers, attrs), (s) => (s as { allowed?: boolean }).allowed === true);
}

/** The status summary of a request made with `headers`: code and, for failures, kube's Status. */
export async function attempt(api: DiffApi, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Observation> {
  const res = await api.request(method, path, body, headers);
  return res.status < 300 ? { http: res.status } : statusOf(res);
}

/** A ServiceAccount and a token for it (TokenRequest), as `Authorization` headers. */
export async function serviceAccountToken(api: DiffApi, ns: string, name: string): Promise<Record<string, string>> {
  must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }), 'create sa');
  const res = must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }), 'token');
  return { authorization: `Bearer ${res.body.status.token as string}` };
}
