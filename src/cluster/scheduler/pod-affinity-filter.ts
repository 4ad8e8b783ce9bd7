/**
 * InterPodAffinity filter. Before the nodes are walked, count per topology domain (key=value):
 * existing pods whose required anti-affinity selects the incoming pod, pods the incoming pod's
 * required anti-affinity selects, and pods matching all of its required affinity terms. Each node
 * is then checked against the domains its labels put it in.
 */
import { unresolvable, unschedulable, type FilterStatus } from './filters.js';
import type { NodeInfo } from './node-info.js';
import { termMatches, type AffinityTerm, type NamespaceLabels, type PodInfo } from './pod-info.js';

export const REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const REASON_AFFINITY = "node(s) didn't match pod affinity rules";

export type DomainCounts = Map<string, number>;

export const domain = (key: string, value: string): string => `${key}\u0000${value}`;

function bump(counts: DomainCounts, node: NodeInfo, topologyKey: string): void {
  const value = node.labels[topologyKey];
  if (value === undefined) return;
  const d = domain(topologyKey, value);
  counts.set(d, (counts.get(d) ?? 0) + 1);
}

export interface AffinityFilterState {
  existingAnti: DomainCounts;
  existingAntiKeys: Set<string>;
  anti: DomainCounts;
  affinity: DomainCounts;
  /** The incoming pod matches all of its own required affinity terms (the first of a group may go anywhere). */
  selfMatch: boolean;
}

const matchesAll = (terms: readonly AffinityTerm[], p: PodInfo, ns: NamespaceLabels): boolean =>
  terms.every((t) => termMatches(t, p, ns));

/**
 * undefined when there is nothing to check: no required terms on the pod and (`existingAnti` false)
 * no pod in the cluster with required anti-affinity.
 */
export function prepareAffinityFilter(pod: PodInfo, nodes: readonly NodeInfo[], ns: NamespaceLabels, existingAnti = true): AffinityFilterState | undefined {
  const ownTerms = pod.requiredAffinity.length + pod.requiredAntiAffinity.length > 0;
  if (!ownTerms && !existingAnti) return undefined;
  const state: AffinityFilterState = {
    existingAnti: new Map(), existingAntiKeys: new Set(), anti: new Map(), affinity: new Map(),
    selfMatch: matchesAll(pod.requiredAffinity, pod, ns),
  };
  let anyExisting = false;
  for (const node of nodes) {
    for (const other of node.podsWithRequiredAntiAffinity.values()) {
      anyExisting = true;
      for (const t of other.requiredAntiAffinity) {
        if (!termMatches(t, pod, ns)) continue;
        bump(state.existingAnti, node, t.topologyKey);
        state.existingAntiKeys.add(t.topologyKey);
      }
    }
    if (!ownTerms) continue;
    for (const other of node.pods.values()) {
      if (pod.requiredAffinity.length > 0 && matchesAll(pod.requiredAffinity, other, ns)) {
        for (const t of pod.requiredAffinity) bump(state.affinity, node, t.topologyKey);
      }
      for (const t of pod.requiredAntiAffinity) if (termMatches(t, other, ns)) bump(state.anti, node, t.topologyKey);
    }
  }
  return ownTerms || anyExisting ? state : undefined;
}

/** Checked in kube-scheduler's order: the pod's affinity, its anti-affinity, then existing pods' anti-affinity. */
export function filterPodAffinity(state: AffinityFilterState, pod: PodInfo, node: NodeInfo): FilterStatus | undefined {
  let podsExist = true;
  for (const t of pod.requiredAffinity) {
    const value = node.labels[t.topologyKey];
    if (value === undefined) return unresolvable(REASON_AFFINITY);
    if ((state.affinity.get(domain(t.topologyKey, value)) ?? 0) <= 0) podsExist = false;
  }
  if (!podsExist && !(state.affinity.size === 0 && state.selfMatch)) return unresolvable(REASON_AFFINITY);
  for (const t of pod.requiredAntiAffinity) {
    const value = node.labels[t.topologyKey];
    if (value !== undefined && (state.anti.get(domain(t.topologyKey, value)) ?? 0) > 0) return unschedulable(REASON_ANTI_AFFINITY);
  }
  for (const key of state.existingAntiKeys) {
    const value = node.labels[key];
    if (value !== undefined && (state.existingAnti.get(domain(key, value)) ?? 0) > 0) return unschedulable(REASON_EXISTING_ANTI_AFFINITY);
  }
  return undefined;
}
