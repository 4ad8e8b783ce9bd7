/**
 * Daemon pod placement shared by the apps/v1 and Advanced DaemonSet controllers (k8s
 * pkg/controller/daemon/util): the tolerations every daemon pod gets, pinning a pod to its node by
 * required node affinity `metadata.name In [node]` (so a scheduler binds it), the node a daemon pod
 * targets, and whether a node should run (or keep running) the daemon.
 */
import type { Node, NodeAffinity, Toleration } from '../../api/core/index.js';
import { NodeNameField, requiredNodeMatcher } from './node-affinity.js';
import { firstUntoleratedTaint } from './taints.js';
import type { PlacementPodSpec } from './types.js';

const exists = (key: string, effect: 'NoExecute' | 'NoSchedule'): Toleration => ({ key, operator: 'Exists', effect });

/** AddOrUpdateDaemonPodTolerations' list. */
export function defaultDaemonTolerations(hostNetwork: boolean): Toleration[] {
  const list = [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
  ];
  if (hostNetwork) list.push(exists('node.kubernetes.io/network-unavailable', 'NoSchedule'));
  return list;
}

/** The spec's tolerations plus the defaults it does not already have (same key, operator, effect). */
export function withDaemonTolerations(spec: PlacementPodSpec | undefined): Toleration[] {
  const own = spec?.tolerations ?? [];
  const missing = defaultDaemonTolerations(spec?.hostNetwork === true)
    .filter((d) => !own.some((t) => t.key === d.key && (t.operator ?? 'Equal') === d.operator && t.effect === d.effect));
  return [...own, ...missing];
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become `metadata.name In [node]`. */
export function pinToNode<A extends PlacementPodSpec['affinity']>(affinity: A | undefined, nodeName: string): NonNullable<A> {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: NodeNameField, operator: 'In' as const, values: [nodeName] }] }] };
  const nodeAffinity: NodeAffinity = { ...affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required };
  return { ...affinity, nodeAffinity } as NonNullable<A>;
}

/** GetTargetNodeName: spec.nodeName, else the single node a `metadata.name In [x]` term pins it to. */
export function targetNodeName(spec: PlacementPodSpec | undefined): string | undefined {
  if (spec?.nodeName) return spec.nodeName;
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length !== 1) return undefined;
  const pin = (terms[0]!.matchFields ?? []).find((f) => f.key === NodeNameField && f.operator === 'In' && f.values?.length === 1);
  return pin?.values?.[0];
}

export interface DaemonPlacement {
  /** A new daemon pod should be created here. */
  shouldRun: boolean;
  /** An existing daemon pod may stay (it tolerates every NoExecute taint). */
  shouldContinueRunning: boolean;
}

/** NodeShouldRunDaemonPod for a daemon's pod template spec: node name, selector and affinity, then taints. */
export function nodeShouldRunDaemonPod(node: Node, templateSpec: PlacementPodSpec | undefined): DaemonPlacement {
  const name = node.metadata.name ?? '';
  if ((templateSpec?.nodeName && templateSpec.nodeName !== name) || !requiredNodeMatcher(templateSpec)(node.metadata.labels ?? {}, name)) {
    return { shouldRun: false, shouldContinueRunning: false };
  }
  const tolerations = withDaemonTolerations(templateSpec);
  const taints = node.spec?.taints;
  if (firstUntoleratedTaint(taints, tolerations, ['NoExecute'])) return { shouldRun: false, shouldContinueRunning: false };
  if (firstUntoleratedTaint(taints, tolerations, ['NoSchedule'])) return { shouldRun: false, shouldContinueRunning: true };
  return { shouldRun: true, shouldContinueRunning: true };
}
