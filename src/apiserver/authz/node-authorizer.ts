/**
 * The Node mode, asked before RBAC as kubeadm's `--authorization-mode=Node,RBAC` does
 * (docs/design/authorization.md §14, §17): a kubelet (`system:node:<name>` in `system:nodes`) may do
 * what the bootstrap `system:node` ClusterRole lists, which kube no longer binds to anyone and grants
 * through this mode instead, narrowed as kube v1.32 narrows it: Secrets, ConfigMaps, claims, volumes,
 * pods and token requests only along the graph of its own pods; only its own Node and Lease to read.
 * What a node may write is narrowed further by NodeRestriction admission (admission/node-restriction.ts).
 */
import type { UserInfo } from '../../api/request.js';
import type { RegistryReader } from '../registry/reader.js';
import type { ResourceAttributes } from './attributes.js';
import type { Authorizer, Decision, RuleSet } from './authorizer.js';
import { NodeGraph, type GraphKind } from './node-graph.js';
import type { RbacAuthorizer } from './rbac-authorizer.js';
import { ruleAllows, type PolicyRule } from './rule-match.js';

const nodesGroup = 'system:nodes';
const nodeUserPrefix = 'system:node:';
const nodeRole = 'system:node';
const nodeLeaseNamespace = 'kube-node-lease';

export const nodeNameOf = (user: UserInfo): string | undefined =>
  (user.groups.includes(nodesGroup) && user.username.startsWith(nodeUserPrefix) ? user.username.slice(nodeUserPrefix.length) : undefined);

const allow: Decision = { decision: 'allow', reason: '' };
const deny = (reason: string): Decision => ({ decision: 'noOpinion', reason });

export function nodeAuthorizer(rbac: RbacAuthorizer, reader: RegistryReader): Authorizer {
  const graph = new NodeGraph(reader);
  const rules = (): PolicyRule[] => {
    const r = rbac.roleReferenceRules('ClusterRole', nodeRole, '');
    return typeof r === 'string' ? [] : r;
  };
  const byRules = (attrs: Parameters<Authorizer['authorize']>[0]): Decision =>
    (rules().some((rule) => ruleAllows(attrs, rule)) ? allow : deny(''));
  const related = (node: string, kind: GraphKind, a: ResourceAttributes): Decision => {
    if (!a.name) return deny('No Object name found');
    return graph.related(node, kind, a.namespace, a.name) ? allow : deny(`no relationship found between node '${node}' and this object`);
  };
  const get = (node: string, kind: GraphKind, a: ResourceAttributes): Decision => {
    if (a.verb !== 'get') return deny('can only get individual resources of this type');
    if (a.subresource) return deny('cannot get subresource');
    return related(node, kind, a);
  };
  const readNamespaced = (node: string, kind: GraphKind, a: ResourceAttributes): Decision => {
    if (!['get', 'list', 'watch'].includes(a.verb)) return deny('can only read resources of this type');
    if (a.subresource) return deny('cannot read subresource');
    if (!a.namespace) return deny('can only read namespaced object of this type');
    return related(node, kind, a);
  };
  const sameName = (node: string, a: ResourceAttributes, refusal: string): Decision =>
    (a.verb !== 'create' && a.name !== node ? deny(refusal) : allow); // a create's name is checked by NodeRestriction
  const writeVerbs = ['get', 'create', 'update', 'patch', 'delete'];

  const decide = (node: string, a: ResourceAttributes): Decision => {
    switch (`${a.group}/${a.resource}`) {
      case '/secrets': return readNamespaced(node, 'secrets', a);
      case '/configmaps': return readNamespaced(node, 'configmaps', a);
      case '/persistentvolumeclaims':
        if (a.subresource === 'status') return ['update', 'patch'].includes(a.verb) ? related(node, 'persistentvolumeclaims', a) : deny('can only get/update/patch this type');
        return get(node, 'persistentvolumeclaims', a);
      case '/persistentvolumes': return get(node, 'persistentvolumes', a);
      case '/serviceaccounts':
        if (a.verb !== 'create' || !a.name) return deny('can only create tokens for individual service accounts');
        if (a.subresource !== 'token') return deny('can only create token subresource of serviceaccount');
        return related(node, 'serviceaccounts', a);
      case 'coordination.k8s.io/leases':
        if (!writeVerbs.includes(a.verb)) return deny('can only get, create, update, patch, or delete a node lease');
        if (a.namespace !== nodeLeaseNamespace) return deny(`can only access leases in the "${nodeLeaseNamespace}" system namespace`);
        return sameName(node, a, 'can only access node lease with the same name as the requesting node');
      case 'storage.k8s.io/csinodes':
        if (!writeVerbs.includes(a.verb)) return deny('can only get, create, update, patch, or delete a CSINode');
        if (a.subresource) return deny('cannot authorize CSINode subresources');
        return sameName(node, a, 'can only access CSINode with the same name as the requesting node');
      case '/nodes':
        if (['create', 'update', 'patch'].includes(a.verb)) return allow; // NodeRestriction keeps a node to its own object
        if (['get', 'list', 'watch'].includes(a.verb)) {
          if (a.name === node) return allow;
          return deny(a.name ? `node '${node}' cannot read '${a.name}', only its own Node object` : `node '${node}' cannot read all nodes, only its own Node object`);
        }
        return byRules(a);
      case '/pods':
        if (a.verb === 'get' && !a.subresource) return related(node, 'pods', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          return boundToNode(a.fieldSelector, node) ? allow : deny('can only list/watch pods with spec.nodeName field selector');
        }
        return byRules(a);
      default: return byRules(a);
    }
  };

  return {
    authorize(attrs) {
      const node = nodeNameOf(attrs.user);
      if (node === undefined) return deny('');
      return attrs.isResource ? decide(node, attrs) : byRules(attrs);
    },
    rulesFor(user): RuleSet {
      const own = nodeNameOf(user) !== undefined ? rules() : [];
      return {
        resourceRules: own.filter((r) => (r.resources ?? []).length > 0),
        nonResourceRules: own.filter((r) => (r.nonResourceURLs ?? []).length > 0),
        incomplete: false,
      };
    },
  };
}

/** `spec.nodeName=<node>` (or `==`) among the field selector's terms. */
function boundToNode(selector: string | undefined, node: string): boolean {
  return (selector ?? '').split(',').some((term) => {
    const m = /^\s*spec\.nodeName\s*==?\s*(.*?)\s*$/.exec(term);
    return m?.[1] === node;
  });
}
