/**
 * Two ways to ask what a user may list (docs/design/dashboard.md §11). With a client that acts as
 * the user (their own token, or under `kruise up` the identity the API server authenticated), the
 * user asks for itself: a SelfSubjectAccessReview per resource for every namespace, then one
 * SelfSubjectRulesReview per namespace whose rules are matched here. Without one (a user the
 * backend only knows by name), the backend asks SubjectAccessReviews about them.
 */
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import type { DashboardAuth, DashboardUser } from './auth.js';

export interface AccessChecker {
  /** May the user list `type` in every namespace (cluster-scoped: at all)? */
  everywhere(type: ResourceType): Promise<boolean>;
  /** Which of `types` the user may list in `namespace`. */
  inNamespace(namespace: string, types: ResourceType[]): Promise<Set<ResourceType>>;
}

const SelfSubjectAccessReviews: ResourceType = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false };
const SelfSubjectRulesReviews: ResourceType = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false };

interface ResourceRule { verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }

const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
/** A rule lets the user list `type` when it names the verb, group and resource, and no resource names. */
export const ruleAllowsList = (r: ResourceRule, type: ResourceType) =>
  has(r.verbs, 'list') && has(r.apiGroups, type.group) && has(r.resources, type.resource) && (r.resourceNames ?? []).length === 0;

export function selfChecker(asUser: Client): AccessChecker {
  return {
    async everywhere(type) {
      const review = await asUser.create(SelfSubjectAccessReviews, {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { name: '' },
        spec: { resourceAttributes: { verb: 'list', group: type.group, resource: type.resource } },
      } as never) as { status?: { allowed?: boolean } };
      return review.status?.allowed === true;
    },
    async inNamespace(namespace, types) {
      const review = await asUser.create(SelfSubjectRulesReviews, {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: { name: '' }, spec: { namespace },
      } as never) as { status?: { resourceRules?: ResourceRule[] } };
      const rules = review.status?.resourceRules ?? [];
      return new Set(types.filter((t) => rules.some((r) => ruleAllowsList(r, t))));
    },
  };
}

export function reviewChecker(auth: DashboardAuth, user: DashboardUser): AccessChecker {
  return {
    everywhere: (type) => auth.allowed(user, 'list', type),
    async inNamespace(namespace, types) {
      const allowed = await Promise.all(types.map(async (t) => ((await auth.allowed(user, 'list', t, namespace)) ? t : undefined)));
      return new Set(allowed.filter((t): t is ResourceType => t !== undefined));
    },
  };
}
