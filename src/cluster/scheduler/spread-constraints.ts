/**
 * Pod topology spread constraints, compiled once per pod: which pods count (selector with
 * matchLabelKeys, same namespace, not terminating), the domain key, the skew allowed, and which
 * nodes take part (node affinity honoured, taints ignored by default). A pod without constraints
 * but with a controller owner gets the scheduler's defaults (spread across hostnames with skew 3
 * and zones with skew 5, ScheduleAnyway), counting the pods of that owner.
 */
import { firstUntoleratedTaint, matchAll, type NodeMatcher } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import { selectorWithLabelKeys, type PodInfo } from './pod-info.js';
import { LABEL_HOSTNAME, LABEL_ZONE } from './types.js';
import type { PodSpec } from '../../api/core/index.js';

export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  /** DoNotSchedule (filter) or ScheduleAnyway (score). */
  hard: boolean;
  minDomains: number;
  honorNodeAffinity: boolean;
  honorTaints: boolean;
  /** Defaults from the owner, not declared by the pod: a node lacking the key is skipped, not ignored. */
  systemDefault: boolean;
  /** Whether the incoming pod itself counts (it matches the selector). */
  selfMatch: boolean;
  /** Matching pods on one node. */
  countOn: (node: NodeInfo) => number;
  /** When known: the only nodes that can have matching pods (so counting need not walk every node). */
  nodesWithMatches: (() => Iterable<NodeInfo>) | undefined;
  /** When known: matching pods per domain over all nodes, kept up to date by the cache (read only). */
  domainCounts: (() => ReadonlyMap<string, number>) | undefined;
}

type ConstraintFields = Omit<SpreadConstraint, 'nodesWithMatches' | 'domainCounts'> & Partial<SpreadConstraint>;

/** One literal for every constraint, so they share a hidden class (read per node in every cycle). */
const constraint = (f: ConstraintFields): SpreadConstraint => ({
  maxSkew: f.maxSkew, topologyKey: f.topologyKey, hard: f.hard, minDomains: f.minDomains,
  honorNodeAffinity: f.honorNodeAffinity, honorTaints: f.honorTaints, systemDefault: f.systemDefault,
  selfMatch: f.selfMatch, countOn: f.countOn, nodesWithMatches: f.nodesWithMatches, domainCounts: f.domainCounts,
});

/** The cluster indexes owner defaults use: nodes and pods per zone of a controller. */
export interface OwnerIndex {
  ownerPodsByNode?(uid: string): ReadonlyMap<NodeInfo, number>;
  ownerPodsByZone?(uid: string): ReadonlyMap<string, number>;
}

function declared(pod: PodInfo, spec: PodSpec): SpreadConstraint[] {
  return (spec.topologySpreadConstraints ?? []).map((c) => {
    const selector = selectorWithLabelKeys(c.labelSelector, pod.labels, c.matchLabelKeys);
    return constraint({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      hard: c.whenUnsatisfiable !== 'ScheduleAnyway',
      minDomains: c.minDomains ?? 1,
      honorNodeAffinity: c.nodeAffinityPolicy !== 'Ignore',
      honorTaints: c.nodeTaintsPolicy === 'Honor',
      systemDefault: false,
      selfMatch: selector.matches(pod.labels),
      countOn: (node) => {
        let n = 0;
        for (const p of node.pods.values()) {
          if (p.namespace === pod.namespace && !p.pod.metadata.deletionTimestamp && selector.matches(p.labels)) n++;
        }
        return n;
      },
    });
  });
}

/**
 * The defaults count the owner's pods. The cache's indexes spare walking every node; its per-zone
 * counts cover all nodes, so they only apply when no node is excluded by the pod's node affinity.
 */
function ownerDefaults(pod: PodInfo, index: OwnerIndex, everyNode: boolean): SpreadConstraint[] {
  const uid = pod.ownerUid;
  if (!uid) return [];
  const byNode = index.ownerPodsByNode?.(uid);
  const nodesWithMatches = byNode && (() => byNode.keys());
  const base = { hard: false, minDomains: 1, honorNodeAffinity: true, honorTaints: false, systemDefault: true, selfMatch: true, nodesWithMatches };
  const countOn = byNode ? (node: NodeInfo) => byNode.get(node) ?? 0 : (node: NodeInfo) => node.owners.get(uid) ?? 0;
  const zoneCounts = everyNode && index.ownerPodsByZone ? () => index.ownerPodsByZone!(uid) : undefined;
  return [
    constraint({ ...base, maxSkew: 3, topologyKey: LABEL_HOSTNAME, countOn }),
    constraint({ ...base, maxSkew: 5, topologyKey: LABEL_ZONE, countOn, domainCounts: zoneCounts }),
  ];
}

/** `matches` is the pod's required node selection (matchAll when it has none). */
export function spreadConstraints(pod: PodInfo, index: OwnerIndex = {}, matches: NodeMatcher = matchAll): SpreadConstraint[] {
  const spec = pod.pod.spec ?? {};
  return spec.topologySpreadConstraints?.length ? declared(pod, spec) : ownerDefaults(pod, index, matches === matchAll);
}

/** Whether a node's pods count towards the domains of `c` (nodeAffinityPolicy / nodeTaintsPolicy). */
export function nodeTakesPart(c: SpreadConstraint, node: NodeInfo, pod: PodInfo, matches: NodeMatcher): boolean {
  if (c.honorNodeAffinity && !matches(node.labels, node.name)) return false;
  if (c.honorTaints && firstUntoleratedTaint(node.taints, pod.pod.spec?.tolerations)) return false;
  return true;
}

export const hasAllKeys = (node: NodeInfo, cs: readonly SpreadConstraint[]): boolean =>
  cs.every((c) => node.labels[c.topologyKey] !== undefined);

/**
 * Matching pods per domain value of `c.topologyKey`, over the nodes that take part. With
 * `keepEmpty` (the filter's minimum needs them) domains without matching pods are listed as 0;
 * without it they are left out, and a constraint that knows where its pods are skips the rest.
 */
export function countDomains(c: SpreadConstraint, all: readonly SpreadConstraint[], nodes: readonly NodeInfo[], pod: PodInfo, matches: NodeMatcher, keepEmpty = true): ReadonlyMap<string, number> {
  if (!keepEmpty && c.domainCounts) return c.domainCounts();
  const counts = new Map<string, number>();
  const key = c.topologyKey;
  const candidates = !keepEmpty && c.nodesWithMatches ? c.nodesWithMatches() : nodes;
  for (const node of candidates) {
    const value = node.labels[key];
    if (value === undefined || node.node === undefined) continue;
    const n = c.countOn(node);
    if (n === 0 && !keepEmpty) continue;
    if (!nodeTakesPart(c, node, pod, matches)) continue;
    if (!c.systemDefault && !hasAllKeys(node, all)) continue;
    counts.set(value, (counts.get(value) ?? 0) + n);
  }
  return counts;
}
