/**
 * Node scores, each 0-100, and the weights the default profile sums them with. Resource scores
 * look at cpu and memory after placing the pod: LeastAllocated prefers free room (counting the
 * scheduler's defaults for containers that request nothing), BalancedAllocation prefers cpu and
 * memory used in equal proportion. Preferred node affinity sums term weights; taint toleration
 * counts intolerable PreferNoSchedule taints (fewer is better).
 */
import type { WeightedTerm } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { intolerablePreferNoSchedule } from './taints.js';
import type { Toleration } from '../../api/core/index.js';

export const MAX_SCORE = 100;

/** Weights of kube-scheduler's default profile. */
export const WEIGHTS = {
  leastAllocated: 1,
  balancedAllocation: 1,
  nodeAffinity: 2,
  taintToleration: 3,
  podAffinity: 2,
  topologySpread: 2,
} as const;

const free = (allocatable: number, requested: number): number =>
  allocatable <= 0 || requested > allocatable ? 0 : Math.floor(((allocatable - requested) * MAX_SCORE) / allocatable);

export function leastAllocatedScore(node: NodeInfo, pod: PodInfo): number {
  const cpu = free(node.allocatable.milliCpu, node.nonZeroRequested.milliCpu + pod.nonZero.milliCpu);
  const memory = free(node.allocatable.memory, node.nonZeroRequested.memory + pod.nonZero.memory);
  return Math.floor((cpu + memory) / 2);
}

export function balancedAllocationScore(node: NodeInfo, pod: PodInfo): number {
  const cpuAlloc = node.allocatable.milliCpu;
  const memAlloc = node.allocatable.memory;
  // With two resources the standard deviation is half their difference; with one it is 0.
  if (cpuAlloc <= 0 || memAlloc <= 0) return MAX_SCORE;
  const cpu = Math.min(1, (node.requested.milliCpu + pod.requests.milliCpu) / cpuAlloc);
  const memory = Math.min(1, (node.requested.memory + pod.requests.memory) / memAlloc);
  return Math.floor((1 - Math.abs(cpu - memory) / 2) * MAX_SCORE);
}

/** Scales raw values to 0-100 by the maximum; `reverse` makes smaller better (all 0 -> all 100). */
export function normalizeByMax(raw: readonly number[], reverse = false): number[] {
  const max = raw.reduce((m, v) => Math.max(m, v), 0);
  return raw.map((v) => {
    if (max === 0) return reverse ? MAX_SCORE : 0;
    const s = Math.floor((v * MAX_SCORE) / max);
    return reverse ? MAX_SCORE - s : s;
  });
}

export function nodeAffinityScores(nodes: readonly NodeInfo[], terms: readonly WeightedTerm[]): number[] | undefined {
  if (terms.length === 0) return undefined;
  const raw = new Array<number>(nodes.length).fill(0);
  for (let i = 0; i < nodes.length; i++) {
    for (const t of terms) if (t.matches(nodes[i].labels, nodes[i].name)) raw[i] += t.weight;
  }
  return normalizeByMax(raw);
}

/** undefined when no node has a PreferNoSchedule taint (every node would score 100). */
export function taintTolerationScores(nodes: readonly NodeInfo[], tolerations: readonly Toleration[] | undefined): number[] | undefined {
  let any = false;
  const raw = new Array<number>(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    raw[i] = nodes[i].taints.length === 0 ? 0 : intolerablePreferNoSchedule(nodes[i].taints, tolerations);
    if (raw[i] > 0) any = true;
  }
  return any ? normalizeByMax(raw, true) : undefined;
}
