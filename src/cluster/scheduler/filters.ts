/**
 * The per-node filters that need only the pod and the node, in kube-scheduler's plugin order:
 * NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit. Each returns
 * undefined when the node passes, or the reasons it failed with (kube-scheduler's wording, which
 * ends up in the FailedScheduling message).
 */
import { firstUntoleratedTaint, tolerated, type NodeMatcher } from '../../machinery/scheduling/index.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { TAINT_UNSCHEDULABLE } from './taints.js';
import type { Toleration } from '../../api/core/index.js';

export interface FilterStatus {
  reasons: string[];
  /** Evicting pods would not help (the PostFilter "Preemption is not helpful" case). */
  unresolvable: boolean;
}

export const REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const REASON_TOO_MANY_PODS = 'Too many pods';

export const unresolvable = (...reasons: string[]): FilterStatus => ({ reasons, unresolvable: true });
export const unschedulable = (...reasons: string[]): FilterStatus => ({ reasons, unresolvable: false });

const UNSCHEDULABLE_TAINT = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' as const };

export function filterUnschedulable(node: NodeInfo, tolerations: readonly Toleration[] | undefined): FilterStatus | undefined {
  if (!node.unschedulable || tolerated(tolerations, UNSCHEDULABLE_TAINT)) return undefined;
  return unresolvable(REASON_UNSCHEDULABLE);
}

export function filterTaints(node: NodeInfo, tolerations: readonly Toleration[] | undefined): FilterStatus | undefined {
  const taint = firstUntoleratedTaint(node.taints, tolerations);
  return taint ? unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`) : undefined;
}

export function filterNodeAffinity(node: NodeInfo, matches: NodeMatcher): FilterStatus | undefined {
  return matches(node.labels, node.name) ? undefined : unresolvable(REASON_NODE_AFFINITY);
}

export function filterHostPorts(node: NodeInfo, pod: PodInfo): FilterStatus | undefined {
  if (pod.ports.length === 0 || node.ports.size === 0) return undefined;
  return node.ports.anyConflict(pod.ports) ? unschedulable(REASON_PORTS) : undefined;
}

/**
 * NodeResourcesFit: the pod count always, and each resource the pod requests against what is left
 * of allocatable. Reports every resource that is short, as upstream does.
 */
export function filterResources(node: NodeInfo, pod: PodInfo): FilterStatus | undefined {
  const a = node.allocatable;
  const used = node.requested;
  const want = pod.requests;
  // Hot path: no closures, and the reasons array only when something is short.
  let reasons: string[] | undefined;
  if (node.pods.size + 1 > a.pods) reasons = [REASON_TOO_MANY_PODS];
  if (want.milliCpu > 0 && want.milliCpu > a.milliCpu - used.milliCpu) (reasons ??= []).push('Insufficient cpu');
  if (want.memory > 0 && want.memory > a.memory - used.memory) (reasons ??= []).push('Insufficient memory');
  if (want.ephemeralStorage > 0 && want.ephemeralStorage > a.ephemeralStorage - used.ephemeralStorage) (reasons ??= []).push('Insufficient ephemeral-storage');
  if (want.scalar) {
    for (const name in want.scalar) {
      const v = want.scalar[name];
      if (v > 0 && v > (a.scalar?.[name] ?? 0) - (used.scalar?.[name] ?? 0)) (reasons ??= []).push(`Insufficient ${name}`);
    }
  }
  return reasons ? unschedulable(...reasons) : undefined;
}
