/**
 * InterPodAffinity score. Every topology domain collects weights: + for pods the incoming pod
 * prefers to be near, - for pods it prefers to avoid, and the same from existing pods' preferences
 * (and required affinity, at weight 1) towards the incoming pod. A node scores the sum over the
 * domains it is in; the sums are then scaled to 0-100 between the lowest and the highest.
 */
import type { NodeInfo } from './node-info.js';
import { domain } from './pod-affinity-filter.js';
import { termMatches, type AffinityTerm, type NamespaceLabels, type PodInfo } from './pod-info.js';

/** Weight of an existing pod's required affinity towards the incoming pod (hardPodAffinityWeight). */
export const HARD_POD_AFFINITY_WEIGHT = 1;

export interface AffinityScoreState {
  /** Domain -> summed weight. */
  weights: Map<string, number>;
  keys: Set<string>;
}

function add(state: AffinityScoreState, node: NodeInfo, key: string, weight: number): void {
  const value = node.labels[key];
  if (value === undefined || weight === 0) return;
  const d = domain(key, value);
  state.weights.set(d, (state.weights.get(d) ?? 0) + weight);
  state.keys.add(key);
}

function addTerms(state: AffinityScoreState, node: NodeInfo, terms: readonly AffinityTerm[], target: PodInfo, sign: number, ns: NamespaceLabels, weight?: number): void {
  for (const t of terms) if (termMatches(t, target, ns)) add(state, node, t.topologyKey, sign * (weight ?? t.weight));
}

/** undefined when no preference is involved (then the score is 0 everywhere, as upstream). */
export function prepareAffinityScore(pod: PodInfo, nodes: readonly NodeInfo[], ns: NamespaceLabels): AffinityScoreState | undefined {
  const own = pod.preferredAffinity.length + pod.preferredAntiAffinity.length > 0;
  const state: AffinityScoreState = { weights: new Map(), keys: new Set() };
  for (const node of nodes) {
    const others = own ? node.pods : node.podsWithAffinity;
    for (const other of others.values()) {
      if (own) {
        addTerms(state, node, pod.preferredAffinity, other, 1, ns);
        addTerms(state, node, pod.preferredAntiAffinity, other, -1, ns);
      }
      if (other.requiredAffinity.length + other.preferredAffinity.length + other.preferredAntiAffinity.length === 0) continue;
      addTerms(state, node, other.requiredAffinity, pod, 1, ns, HARD_POD_AFFINITY_WEIGHT);
      addTerms(state, node, other.preferredAffinity, pod, 1, ns);
      addTerms(state, node, other.preferredAntiAffinity, pod, -1, ns);
    }
  }
  return state.weights.size > 0 ? state : undefined;
}

export function rawAffinityScore(state: AffinityScoreState, node: NodeInfo): number {
  let sum = 0;
  for (const key of state.keys) {
    const value = node.labels[key];
    if (value !== undefined) sum += state.weights.get(domain(key, value)) ?? 0;
  }
  return sum;
}

/** Scales raw sums to 0-100 between their minimum and maximum; all equal -> all 0. */
export function normalizeMinMax(raw: readonly number[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of raw) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const span = max - min;
  return raw.map((v) => (span > 0 ? Math.floor((100 * (v - min)) / span) : 0));
}
