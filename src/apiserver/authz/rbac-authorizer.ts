/**
 * The RBAC authorizer: kube's DefaultRuleResolver.VisitRulesFor over the indexes, then RuleAllows
 * on each rule until one allows (docs/design/authorization.md §3-4). ClusterRoleBindings first,
 * then the RoleBindings of the request's namespace. A binding whose role is missing adds an error
 * to the reason, as kube's does, and evaluation goes on.
 */
import type { UserInfo } from '../../api/request.js';
import type { Attributes } from './attributes.js';
import type { Binding, RbacIndex } from './rbac-index.js';
import { ruleAllows, type PolicyRule } from './rule-match.js';
import { appliesTo, describeSubject, userKeys } from './subjects.js';
import type { Authorizer, Decision, RuleSet } from './authorizer.js';

/** Called with each rule and where it came from, or with an error; returning false stops the visit. */
type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

export class RbacAuthorizer implements Authorizer {
  constructor(private readonly index: RbacIndex) {}

  authorize(attrs: Attributes): Decision {
    let allowedBy: string | undefined;
    const errors: string[] = [];
    const namespace = attrs.isResource ? attrs.namespace : '';
    this.visitRulesFor(attrs.user, namespace, (source, rule, error) => {
      if (rule && ruleAllows(attrs, rule)) {
        allowedBy = source;
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
    return { decision: 'noOpinion', reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
  }

  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return {
      resourceRules: rules.filter((r) => (r.resources ?? []).length > 0),
      nonResourceRules: rules.filter((r) => (r.nonResourceURLs ?? []).length > 0),
      incomplete: false,
      evaluationError: errors.length ? aggregate(errors) : undefined,
    };
  }

  private visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    const keys = userKeys(user);
    const scopes: [Binding[], string][] = [[this.index.clusterRoleBindings.matching(keys), '']];
    if (namespace) scopes.push([this.index.roleBindingsIn(namespace)?.matching(keys) ?? [], namespace]);
    for (const [bindings, bindingNamespace] of scopes) {
      for (const binding of bindings) {
        const subjectIndex = appliesTo(user, binding.subjects, bindingNamespace);
        if (subjectIndex < 0) continue;
        const rules = this.roleRules(binding, bindingNamespace);
        if (typeof rules === 'string') {
          if (!visit(undefined, undefined, rules)) return;
          continue;
        }
        const source = describeBinding(binding, describeSubject(binding.subjects[subjectIndex]!, bindingNamespace));
        for (const rule of rules) if (!visit(source, rule, undefined)) return;
      }
    }
  }

  private roleRules(binding: Binding, namespace: string): PolicyRule[] | string {
    return this.roleReferenceRules(binding.roleRef.kind, binding.roleRef.name, namespace);
  }

  /** The referenced role's rules, or kube's error text when it is missing (GetRoleReferenceRules). */
  roleReferenceRules(kind: string, name: string, namespace: string): PolicyRule[] | string {
    if (kind === 'ClusterRole') return this.index.clusterRoles.get(name) ?? `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`;
    if (kind === 'Role' && namespace) return this.index.roles.get(`${namespace}/${name}`) ?? `role.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`;
    return `unsupported role reference kind: ${JSON.stringify(kind)}`;
  }
}

function describeBinding(binding: Binding, subject: string): string {
  const { kind, name } = binding.roleRef;
  if (!binding.namespace) return `ClusterRoleBinding ${JSON.stringify(binding.name)} of ${kind} ${JSON.stringify(name)} to ${subject}`;
  return `RoleBinding ${JSON.stringify(`${binding.name}/${binding.namespace}`)} of ${kind} ${JSON.stringify(name)} to ${subject}`;
}

/** utilerrors.NewAggregate's text: one error alone, several as `[a, b]`. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
