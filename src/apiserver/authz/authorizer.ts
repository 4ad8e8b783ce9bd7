/**
 * The authorizer seam and the chain kube-apiserver builds for `--authorization-mode`
 * (docs/design/authorization.md §1): `system:masters` is allowed before any mode is asked, then
 * each mode in turn; the first allow or deny wins, reasons of the others are joined.
 */
import type { UserInfo } from '../../api/request.js';
import type { Attributes } from './attributes.js';
import type { PolicyRule } from './rule-match.js';

export interface Decision {
  decision: 'allow' | 'deny' | 'noOpinion';
  reason: string;
}

/** What a user may do in a namespace (SelfSubjectRulesReview). */
export interface RuleSet {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attrs: Attributes): Decision;
  rulesFor(user: UserInfo, namespace: string): RuleSet;
}

export type AuthorizationMode = 'AlwaysAllow' | 'RBAC';
export const authorizationModes: readonly AuthorizationMode[] = ['AlwaysAllow', 'RBAC'];

export const privilegedGroup = 'system:masters';

const everything: RuleSet = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

export const alwaysAllow: Authorizer = {
  authorize: () => ({ decision: 'allow', reason: '' }),
  rulesFor: () => everything,
};

/** kube's authorizerfactory.NewPrivilegedGroups: members of `system:masters` may do anything. */
const privilegedGroups: Authorizer = {
  authorize: (attrs) => ({ decision: attrs.user.groups.includes(privilegedGroup) ? 'allow' : 'noOpinion', reason: '' }),
  rulesFor: (user) => (user.groups.includes(privilegedGroup) ? everything : { resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/** kube's union authorizer, with the privileged-group authorizer in front. */
export function authorizerChain(modes: Authorizer[]): Authorizer {
  const chain = [privilegedGroups, ...modes];
  return {
    authorize(attrs) {
      const reasons: string[] = [];
      for (const a of chain) {
        const d = a.authorize(attrs);
        if (d.decision !== 'noOpinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      return { decision: 'noOpinion', reason: reasons.join('\n') };
    },
    rulesFor(user, namespace) {
      const sets = chain.map((a) => a.rulesFor(user, namespace));
      const errors = sets.map((s) => s.evaluationError).filter((e): e is string => !!e);
      return {
        resourceRules: sets.flatMap((s) => s.resourceRules),
        nonResourceRules: sets.flatMap((s) => s.nonResourceRules),
        incomplete: sets.some((s) => s.incomplete),
        evaluationError: errors.length ? errors.join('\n') : undefined,
      };
    },
  };
}
