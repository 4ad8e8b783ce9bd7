/**
 * Whether one PolicyRule allows a request: kube's RuleAllows and the rbacv1helpers matchers it
 * uses, rule for rule (docs/design/authorization.md §3). Pure, so it is tested as a table.
 */
import type { Attributes } from './attributes.js';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const all = '*';

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResource) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return apiGroupMatches(rule, attrs.group) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === all || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === all || g === group);
}

/** `*` matches everything, `pods/log` its subresource only, `*\/log` the log subresource of any resource. */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const resource of rule.resources ?? []) {
    if (resource === all || resource === combinedResource) return true;
    if (subresource && resource.length === subresource.length + 2 && resource.startsWith('*/') && resource.endsWith(subresource)) return true;
  }
  return false;
}

/** No resourceNames means every name; otherwise the request must name one of them (so never a list). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** Exact paths, `*` for every path, and `prefix*` for everything under a prefix. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === all || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}
