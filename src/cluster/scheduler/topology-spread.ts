/**
 * PodTopologySpread: DoNotSchedule constraints filter (placing the pod must not make its domain
 * exceed the least-populated domain by more than maxSkew), ScheduleAnyway constraints score
 * (fewer matching pods in the node's domains is better, weighted by log(domains + 2)).
 */
import { unresolvable, unschedulable, type FilterStatus } from './filters.js';
import type { NodeMatcher } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { countDomains, hasAllKeys, nodeTakesPart, type SpreadConstraint } from './spread-constraints.js';
import { LABEL_HOSTNAME } from './types.js';

export const REASON_SPREAD = "node(s) didn't match pod topology spread constraints";
export const REASON_SPREAD_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";

export interface SpreadFilterState {
  constraints: SpreadConstraint[];
  counts: ReadonlyMap<string, number>[];
  /** Per constraint: the smallest domain count (0 when fewer domains than minDomains). */
  minMatch: number[];
}

export function prepareSpreadFilter(all: readonly SpreadConstraint[], nodes: readonly NodeInfo[], pod: PodInfo, matches: NodeMatcher): SpreadFilterState | undefined {
  const constraints = all.filter((c) => c.hard);
  if (constraints.length === 0) return undefined;
  const counts = constraints.map((c) => countDomains(c, constraints, nodes, pod, matches));
  const minMatch = constraints.map((c, i) => {
    if (counts[i].size < c.minDomains) return 0;
    let min = Infinity;
    for (const n of counts[i].values()) min = Math.min(min, n);
    return min === Infinity ? 0 : min;
  });
  return { constraints, counts, minMatch };
}

export function filterSpread(state: SpreadFilterState, node: NodeInfo): FilterStatus | undefined {
  for (let i = 0; i < state.constraints.length; i++) {
    const c = state.constraints[i];
    const value = node.labels[c.topologyKey];
    if (value === undefined) return unresolvable(REASON_SPREAD_MISSING_LABEL);
    const skew = (state.counts[i].get(value) ?? 0) + (c.selfMatch ? 1 : 0) - state.minMatch[i];
    if (skew > c.maxSkew) return unschedulable(REASON_SPREAD);
  }
  return undefined;
}

/**
 * Scores 0-100 for `feasible` nodes. Hostname constraints count on the feasible nodes themselves,
 * other keys over every node that takes part. A node missing a declared key scores 0.
 */
export function spreadScores(all: readonly SpreadConstraint[], feasible: readonly NodeInfo[], nodes: readonly NodeInfo[], pod: PodInfo, matches: NodeMatcher): number[] | undefined {
  const constraints = all.filter((c) => !c.hard);
  if (constraints.length === 0) return undefined;
  const counts = constraints.map((c) => (c.topologyKey === LABEL_HOSTNAME ? undefined : countDomains(c, constraints, nodes, pod, matches, false)));
  const weights = constraints.map((c) => Math.log(domainsAmong(feasible, c.topologyKey) + 2));
  const requireAll = !constraints[0].systemDefault;
  const raw = new Array<number | undefined>(feasible.length);
  for (let n = 0; n < feasible.length; n++) {
    const node = feasible[n];
    if (requireAll && !hasAllKeys(node, constraints)) continue;
    let sum = 0;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i];
      const value = node.labels[c.topologyKey];
      if (value === undefined) continue;
      const domainCounts = counts[i];
      const matching = domainCounts ? (domainCounts.get(value) ?? 0) : nodeTakesPart(c, node, pod, matches) ? c.countOn(node) : 0;
      sum += matching * weights[i] + (c.maxSkew - 1);
    }
    raw[n] = sum;
  }
  return normalizeSpread(raw);
}

function domainsAmong(nodes: readonly NodeInfo[], key: string): number {
  if (key === LABEL_HOSTNAME) {
    // One domain per node: count, no set needed.
    let n = 0;
    for (const node of nodes) if (node.labels[key] !== undefined) n++;
    return n;
  }
  const domains = new Set<string>();
  for (const n of nodes) {
    const v = n.labels[key];
    if (v !== undefined) domains.add(v);
  }
  return domains.size;
}

/** Lower raw is better: 100 * (max + min - raw) / max; ignored nodes (undefined) score 0. */
export function normalizeSpread(raw: readonly (number | undefined)[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of raw) {
    if (v === undefined) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return raw.map((v) => {
    if (v === undefined) return 0;
    if (max <= 0) return 100;
    return Math.floor((100 * (max + min - v)) / max);
  });
}
