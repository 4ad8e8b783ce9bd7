/**
 * Whether one set of rules covers another, for escalation prevention: kube's validation.Covers
 * (rules broken down to one verb, group, resource and name each), CompactRules and CompactString,
 * which shape the "not currently held" message (docs/design/authorization.md §13).
 */
import type { PolicyRule } from './rule-match.js';

const all = '*';
const has = (set: string[] | undefined, item: string) => (set ?? []).includes(item);
const hasAll = (set: string[] | undefined, items: string[] | undefined) => (items ?? []).every((i) => has(set, i));

/** The servant rules' atomic parts that no owner rule covers (empty when all are covered). */
export function covers(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** One rule per group x resource x verb (x name), and per non-resource URL x verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCoversAll(set: string[] | undefined, wanted: string[] | undefined): boolean {
  if (has(set, all) || hasAll(set, wanted)) return true;
  return (wanted ?? []).every((path) => has(set, path) || (path.includes('/') && has(set, `*/${path.slice(path.indexOf('/') + 1)}`)));
}

function nonResourceURLsCoverAll(set: string[] | undefined, wanted: string[] | undefined): boolean {
  return (wanted ?? []).every((path) => (set ?? []).some((owner) => owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')))));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const names = (sub.resourceNames ?? []).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return (has(owner.verbs, all) || hasAll(owner.verbs, sub.verbs))
    && (has(owner.apiGroups, all) || hasAll(owner.apiGroups, sub.apiGroups))
    && resourceCoversAll(owner.resources, sub.resources)
    && nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs) && names;
}

/** Rules of one group, one resource and at most one name that differ only by verb become one rule. */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const complex: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = (rule.resourceNames ?? []).length <= 1 && !(rule.nonResourceURLs ?? []).length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      complex.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...complex, ...simple.values()];
}

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`: Go's %q of each non-empty list. */
export function compactString(rule: PolicyRule): string {
  const q = (list: string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
  const parts: string[] = [];
  for (const [label, list] of [['APIGroups', rule.apiGroups], ['Resources', rule.resources], ['NonResourceURLs', rule.nonResourceURLs], ['ResourceNames', rule.resourceNames], ['Verbs', rule.verbs]] as const) {
    if (list?.length) parts.push(`${label}:${q(list)}`);
  }
  return `{${parts.join(', ')}}`;
}
