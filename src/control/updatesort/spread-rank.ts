/**
 * Spread ranks for CloneSet scale-in (docs/design/cloneset.md §8): a higher rank means the pod sits
 * in a more crowded place and is deleted earlier. Without spread constraints, pods sharing a node
 * are ranked; with them, pods in each topology domain are ranked and weighted by ln(#domains + 2).
 */
import type { Pod } from '../../api/core/index.js';
import { compareActivePods } from './active-pods.js';

export interface PodSpreadConstraint {
  topologyKey: string;
  /** Only these domain values take part; empty means all. */
  limitedValues?: readonly string[];
}

const HostnameLabel = 'kubernetes.io/hostname';

/** The constraints CloneSet derives from its template: one per `topologySpreadConstraints[].topologyKey`. */
export function spreadConstraintsFromPodSpec(spec: { topologySpreadConstraints?: { topologyKey: string }[] } | undefined): PodSpreadConstraint[] {
  return (spec?.topologySpreadConstraints ?? []).map((c) => ({ topologyKey: c.topologyKey }));
}

function groupByNode<P extends Pod>(pods: readonly P[]): Map<string, P[]> {
  const byNode = new Map<string, P[]>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node) byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}

/** On each node with several pods, all but the one most worth keeping get ranks n-1 … 1 in deletion order. */
export function sameNodeRanks<P extends Pod>(pods: readonly P[]): Map<P, number> {
  const ranks = new Map<P, number>();
  for (const onNode of groupByNode(pods).values()) {
    if (onNode.length <= 1) continue;
    const doomed = [...onNode].sort(compareActivePods<P>({ deletionCost: true })).slice(0, -1);
    doomed.forEach((pod, i) => ranks.set(pod, doomed.length - i));
  }
  return ranks;
}

/** Sum over constraints of (rank within its domain) × ln(#domains + 2); pods on unknown nodes get nothing. */
export function spreadConstraintRanks<P extends Pod>(
  pods: readonly P[], constraints: readonly PodSpreadConstraint[],
  nodeLabels: (nodeName: string) => Record<string, string> | undefined,
): Map<P, number> {
  const ranks = new Map<P, number>();
  const byNode = groupByNode(pods);
  const nodeRanks = sameNodeRanks(pods);
  for (const constraint of constraints) {
    const limited = constraint.limitedValues?.length ? new Set(constraint.limitedValues) : undefined;
    const domains = new Map<string, P[]>();
    for (const [node, onNode] of byNode) {
      const value = nodeLabels(node)?.[constraint.topologyKey];
      if (value === undefined || (limited && !limited.has(value))) continue;
      domains.set(value, [...(domains.get(value) ?? []), ...onNode]);
    }
    // node crowding only breaks ties when the domain is not the node itself
    const rank = constraint.topologyKey === HostnameLabel ? undefined : (p: P) => nodeRanks.get(p) ?? 0;
    const weight = Math.log(domains.size + 2);
    for (const inDomain of domains.values()) {
      const ordered = [...inDomain].sort(compareActivePods<P>({ deletionCost: true, ...(rank ? { rank } : {}) }));
      ordered.forEach((pod, i) => ranks.set(pod, (ranks.get(pod) ?? 0) + (ordered.length - i) * weight));
    }
  }
  return ranks;
}
