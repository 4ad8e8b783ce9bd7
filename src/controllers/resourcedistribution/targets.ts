/**
 * The namespaces a ResourceDistribution targets (docs/design/resourcedistribution.md §2): all, or
 * the included names plus those a non-empty selector matches; never kube-system or kube-public;
 * minus the excluded names. Every other existing namespace is unmatched.
 */
import type { KObject } from '../../api/meta.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { ResourceDistributionObject } from './resource.js';

const systemNamespaces = new Set(['kube-system', 'kube-public']);

const isEmptySelector = (s: MetaLabelSelector | undefined) => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/** Whether one namespace is a target (for event handlers); labels of the namespace as given. */
export function targetsNamespace(rd: ResourceDistributionObject, name: string, labels: Record<string, string> | undefined): boolean {
  const t = rd.spec?.targets;
  if (!t || systemNamespaces.has(name)) return false;
  if (t.excludedNamespaces?.list?.some((n) => n.name === name)) return false;
  if (t.allNamespaces || t.includedNamespaces?.list?.some((n) => n.name === name)) return true;
  const selector = t.namespaceSelector as MetaLabelSelector | undefined;
  return !isEmptySelector(selector) && selectorFromLabelSelector(selector).matches(labels);
}

export interface Targets {
  /** Sorted target names, including listed namespaces that do not exist. */
  matched: string[];
  /** Existing namespaces that are not targets. */
  unmatched: string[];
}

export function computeTargets(rd: ResourceDistributionObject, namespaces: KObject[]): Targets {
  const matched = new Set<string>();
  for (const ns of namespaces) {
    if (targetsNamespace(rd, ns.metadata.name!, ns.metadata.labels)) matched.add(ns.metadata.name!);
  }
  const t = rd.spec?.targets;
  const excluded = new Set((t?.excludedNamespaces?.list ?? []).map((n) => n.name));
  for (const { name } of t?.includedNamespaces?.list ?? []) {
    if (name && !excluded.has(name) && !systemNamespaces.has(name)) matched.add(name);
  }
  const unmatched = namespaces.map((n) => n.metadata.name!).filter((n) => !matched.has(n));
  return { matched: [...matched].sort(), unmatched: unmatched.sort() };
}
