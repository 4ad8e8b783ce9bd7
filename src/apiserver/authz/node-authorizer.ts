/**
 * The Node mode, asked before RBAC as kubeadm's `--authorization-mode=Node,RBAC` does
 * (docs/design/authorization.md §14): a kubelet (`system:node:<name>` in `system:nodes`) may do
 * what the bootstrap `system:node` ClusterRole lists, which kube no longer binds to anyone and grants
 * through this mode instead. kube narrows it further, by the graph of what the node's own pods refer
 * to and by NodeRestriction admission; the embedded server does not (§12).
 */
import type { UserInfo } from '../../api/request.js';
import type { Authorizer, RuleSet } from './authorizer.js';
import type { RbacAuthorizer } from './rbac-authorizer.js';
import { ruleAllows, type PolicyRule } from './rule-match.js';

const nodesGroup = 'system:nodes';
const nodeUserPrefix = 'system:node:';
const nodeRole = 'system:node';

const isNode = (user: UserInfo) => user.groups.includes(nodesGroup) && user.username.startsWith(nodeUserPrefix);

export function nodeAuthorizer(rbac: RbacAuthorizer): Authorizer {
  const rules = (): PolicyRule[] => {
    const r = rbac.roleReferenceRules('ClusterRole', nodeRole, '');
    return typeof r === 'string' ? [] : r;
  };
  return {
    authorize(attrs) {
      if (!isNode(attrs.user)) return { decision: 'noOpinion', reason: '' };
      return { decision: rules().some((rule) => ruleAllows(attrs, rule)) ? 'allow' : 'noOpinion', reason: '' };
    },
    rulesFor(user): RuleSet {
      const own = isNode(user) ? rules() : [];
      return {
        resourceRules: own.filter((r) => (r.resources ?? []).length > 0),
        nonResourceRules: own.filter((r) => (r.nonResourceURLs ?? []).length > 0),
        incomplete: false,
      };
    },
  };
}
