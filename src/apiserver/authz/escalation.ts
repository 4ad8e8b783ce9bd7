/**
 * RBAC's escalation prevention, kube's policybased role and binding storages
 * (docs/design/authorization.md §13): a Role or ClusterRole may be written only by someone who
 * holds every permission it grants (or may `escalate`), and a binding only by someone who holds
 * the bound role's permissions (or may `bind` it). `system:masters` is exempt. It runs as a
 * validating admission step, so it sees the decoded object and the requesting user.
 */
import type { KObject } from '../../api/meta.js';
import type { UserInfo } from '../../api/request.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Admission, AdmissionAttributes } from '../registry/context.js';
import type { ResourceAttributes } from './attributes.js';
import { privilegedGroup, type Authorizer } from './authorizer.js';
import { compactRules, compactString, covers } from './covers.js';
import type { RbacAuthorizer } from './rbac-authorizer.js';
import type { PolicyRule } from './rule-match.js';

const rbac = 'rbac.authorization.k8s.io';
const roleKinds = new Set(['roles', 'clusterroles']);
const bindingKinds = new Set(['rolebindings', 'clusterrolebindings']);

export function escalationCheck(authorizer: Authorizer, rbacRules: RbacAuthorizer): Pick<Admission, 'validate'> {
  return {
    async validate(attrs) {
      const { resource, operation, subresource, ctx } = attrs;
      const plural = resource.definition.plural;
      if (resource.definition.group !== rbac || subresource || (operation !== 'CREATE' && operation !== 'UPDATE') || !attrs.object) return;
      if (!roleKinds.has(plural) && !bindingKinds.has(plural)) return;
      if (ctx.user.groups.includes(privilegedGroup) || unchanged(attrs)) return;
      const namespace = attrs.namespace ?? '';
      const name = attrs.object.metadata.name ?? attrs.name ?? '';
      const forbidden = (why: string) => new StatusError(403, 'Forbidden', `${plural}.${rbac} ${JSON.stringify(name)} is forbidden: ${why}`, { name, group: rbac, kind: plural });
      const allowedTo = (verb: string, extra: Partial<ResourceAttributes>) => authorizer.authorize({
        isResource: true, user: ctx.user, verb, group: rbac, version: '*', resource: plural, subresource: '', namespace, name, ...extra,
      }).decision === 'allow';
      if (roleKinds.has(plural)) {
        if (allowedTo('escalate', {})) return;
        if (attrs.object.aggregationRule) throw forbidden('must have cluster-admin privileges to use the aggregationRule');
        return confirmNoEscalation(ctx.user, rulesOf(attrs.object), namespace, forbidden);
      }
      const ref = (attrs.object.roleRef ?? {}) as { kind?: string; name?: string };
      const refResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '';
      if (refResource && allowedTo('bind', { resource: refResource, name: ref.name ?? '' })) return;
      const rules = rbacRules.roleReferenceRules(ref.kind ?? '', ref.name ?? '', namespace);
      // kube answers a missing role with a NotFound that names the role under the binding's resource.
      if (typeof rules === 'string') throw errors.notFound(plural, ref.name ?? '', rbac);
      return confirmNoEscalation(ctx.user, rules, namespace, forbidden);
    },
  };

  /** kube's ConfirmNoEscalation: every granted rule is covered by the user's own RBAC rules in the namespace. */
  function confirmNoEscalation(user: UserInfo, rules: PolicyRule[], namespace: string, forbidden: (why: string) => StatusError): void {
    const own = rbacRules.rulesFor(user, namespace);
    const missing = covers([...own.resourceRules, ...own.nonResourceRules], rules);
    if (missing.length === 0) return;
    const held = [...new Set(compactRules(missing).map(compactString))].sort().join('\n');
    const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]`;
    let why = `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${held}`;
    if (own.evaluationError) why += `; resolution errors: [${own.evaluationError}]`;
    throw forbidden(why);
  }
}

const rulesOf = (o: KObject) => (Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : []);

/** An update that changes nothing RBAC acts on (only metadata such as owner references) is not checked again. */
function unchanged(attrs: AdmissionAttributes): boolean {
  if (attrs.operation !== 'UPDATE' || !attrs.oldObject) return false;
  const relevant = (o: KObject) => ({ rules: o.rules, aggregationRule: o.aggregationRule, roleRef: o.roleRef, subjects: o.subjects, labels: o.metadata.labels });
  return deepEqual(relevant(attrs.object!), relevant(attrs.oldObject));
}
