/**
 * One scheduling decision, pure over the cluster view: prepare the pod's cycle state, filter nodes
 * (stopping after enough feasible ones, starting where the previous cycle stopped, as upstream's
 * percentageOfNodesToScore does), score the feasible nodes and pick the best, breaking ties at
 * random. When nothing fits, returns each node's failure for the FailedScheduling message.
 */
import { filterHostPorts, filterNodeAffinity, filterResources, filterTaints, filterUnschedulable, type FilterStatus } from './filters.js';
import { fitErrorMessage } from './fit-error.js';
import { preferredNodeTerms, requiredNodeMatcher, type NodeMatcher } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import { filterPodAffinity, prepareAffinityFilter, type AffinityFilterState } from './pod-affinity-filter.js';
import { podInfo, type NamespaceLabels, type PodInfo } from './pod-info.js';
import type { Random } from './rng.js';
import { scoreNodes } from './score-nodes.js';
import { spreadConstraints, type SpreadConstraint } from './spread-constraints.js';
import { filterSpread, prepareSpreadFilter, type SpreadFilterState } from './topology-spread.js';
import { VolumeBinding, type VolumeFilterState } from './volume-binding.js';
import type { Pod, Toleration } from '../../api/core/index.js';

export interface ClusterView {
  /** Nodes with a Node object, in a stable order. */
  nodes: readonly NodeInfo[];
  namespaceLabels: NamespaceLabels;
  /** Whether any pod in the cluster has required pod anti-affinity (else that check is skipped). */
  anyRequiredAntiAffinity: boolean;
  /** Whether any pod in the cluster has pod affinity or anti-affinity terms (else scoring skips them). */
  anyPodAffinity: boolean;
  /** Pods of a controller (owner uid) per node holding any, if the view indexes them. */
  ownerPodsByNode?(uid: string): ReadonlyMap<NodeInfo, number>;
  /** Pods of a controller per `topology.kubernetes.io/zone` value, if the view indexes them. */
  ownerPodsByZone?(uid: string): ReadonlyMap<string, number>;
}

export interface FindOptions {
  random: Random;
  /** Share of nodes to find feasible before scoring; 0 (default) adapts to the cluster size like upstream. */
  percentageOfNodesToScore?: number;
  /** Index in `nodes` to start filtering at. */
  start?: number;
  /** The VolumeBinding filter's state, for a pod with claims. */
  volumes?: VolumeFilterState;
}

export type FindResult =
  | { node: string; feasible: number; nextStart: number }
  | { node?: undefined; message: string; statuses: Map<string, FilterStatus>; nextStart: number };

export interface CycleState {
  pod: PodInfo;
  matches: NodeMatcher;
  tolerations?: Toleration[];
  constraints: SpreadConstraint[];
  affinity?: AffinityFilterState;
  spread?: SpreadFilterState;
  volumes?: VolumeFilterState;
}

/** kube-scheduler's numFeasibleNodesToFind: everything below 100 nodes, else an adaptive share, at least 100. */
export function numFeasibleNodesToFind(numNodes: number, percentage = 0): number {
  if (numNodes < 100 || percentage >= 100) return numNodes;
  const pct = percentage > 0 ? percentage : Math.max(5, 50 - Math.floor(numNodes / 125));
  return Math.max(100, Math.floor((numNodes * pct) / 100));
}

export function prepareCycle(pod: Pod, cluster: ClusterView): CycleState {
  const info = podInfo(pod);
  const matches = requiredNodeMatcher(pod.spec);
  const constraints = spreadConstraints(info, cluster, matches);
  return {
    pod: info, matches, constraints, tolerations: pod.spec?.tolerations,
    affinity: prepareAffinityFilter(info, cluster.nodes, cluster.namespaceLabels, cluster.anyRequiredAntiAffinity),
    spread: prepareSpreadFilter(constraints, cluster.nodes, info, matches),
  };
}

export function runFilters(state: CycleState, node: NodeInfo): FilterStatus | undefined {
  return filterUnschedulable(node, state.tolerations)
    ?? filterTaints(node, state.tolerations)
    ?? filterNodeAffinity(node, state.matches)
    ?? filterHostPorts(node, state.pod)
    ?? filterResources(node, state.pod)
    ?? (state.spread && filterSpread(state.spread, node))
    ?? (state.affinity && filterPodAffinity(state.affinity, state.pod, node))
    ?? (state.volumes && VolumeBinding.filter(state.volumes, node));
}

export function findNode(pod: Pod, cluster: ClusterView, options: FindOptions): FindResult {
  const nodes = cluster.nodes;
  const n = nodes.length;
  const start = n > 0 ? (options.start ?? 0) % n : 0;
  const state = prepareCycle(pod, cluster);
  state.volumes = options.volumes;
  const want = numFeasibleNodesToFind(n, options.percentageOfNodesToScore);
  const feasible: NodeInfo[] = [];
  const statuses = new Map<string, FilterStatus>();
  let processed = 0;
  while (processed < n && feasible.length < want) {
    const node = nodes[(start + processed) % n];
    processed++;
    const status = runFilters(state, node);
    if (status) statuses.set(node.name, status);
    else feasible.push(node);
  }
  const nextStart = n > 0 ? (start + processed) % n : 0;
  if (feasible.length === 0) return { message: fitErrorMessage(n, statuses.values()), statuses, nextStart };
  if (feasible.length === 1) return { node: feasible[0].name, feasible: 1, nextStart };
  const scores = scoreNodes(state, feasible, cluster, preferredNodeTerms(pod.spec));
  return { node: feasible[pickBest(scores, options.random)].name, feasible: feasible.length, nextStart };
}

/** Index of the highest score; among equal scores each is equally likely (reservoir sampling). */
export function pickBest(scores: readonly number[], random: Random): number {
  let best = 0;
  let ties = 1;
  for (let i = 1; i < scores.length; i++) {
    if (scores[i] > scores[best]) {
      best = i;
      ties = 1;
    } else if (scores[i] === scores[best]) {
      ties++;
      if (random() * ties < 1) best = i;
    }
  }
  return best;
}
