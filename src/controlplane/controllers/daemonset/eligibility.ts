/**
 * Which nodes a DaemonSet belongs on, and how its pods are pinned there. A daemon pod tolerates the
 * node conditions a daemon must survive (not-ready and unreachable NoExecute; disk, memory and PID
 * pressure and unschedulable NoSchedule; network-unavailable for host-network pods) and is pinned by
 * required node affinity `metadata.name In [node]`, so the scheduler still binds it.
 */
import { requiredNodeMatcher } from '../../scheduler/node-affinity.js';
import { toleratesTaint } from '../../scheduler/taints.js';
import type { PodSpec, Toleration } from '../../scheduler/types.js';
import type { Node, Pod, PodTemplateSpec, Taint } from '../shared/types.js';

const exists = (key: string, effect: 'NoExecute' | 'NoSchedule'): Toleration => ({ key, operator: 'Exists', effect });

/** AddOrUpdateDaemonPodTolerations: the tolerations every daemon pod gets. */
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

/** The template's tolerations plus the defaults it does not already have (same key, operator, effect). */
export function withDaemonTolerations(template: PodTemplateSpec | undefined): Toleration[] {
  const spec = (template?.spec ?? {}) as PodSpec & { hostNetwork?: boolean };
  const own = spec.tolerations ?? [];
  const missing = defaultDaemonTolerations(spec.hostNetwork === true)
    .filter((d) => !own.some((t) => t.key === d.key && (t.operator ?? 'Equal') === d.operator && t.effect === d.effect));
  return [...own, ...missing];
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become `metadata.name In [node]`. */
export function pinToNode(affinity: Record<string, unknown> | undefined, nodeName: string): Record<string, unknown> {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
  const nodeAffinity = (affinity?.nodeAffinity ?? {}) as Record<string, unknown>;
  return { ...affinity, nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required } };
}

export interface Placement {
  /** A new daemon pod should be created here. */
  shouldRun: boolean;
  /** An existing daemon pod may stay (it tolerates every NoExecute taint). */
  shouldContinueRunning: boolean;
}

/** NodeShouldRunDaemonPod: node name, nodeSelector and required affinity, then taints. */
export function nodeShouldRunDaemonPod(node: Node, template: PodTemplateSpec | undefined): Placement {
  const spec = (template?.spec ?? {}) as PodSpec & { nodeName?: string };
  const name = node.metadata.name!;
  if ((spec.nodeName && spec.nodeName !== name) || !requiredNodeMatcher(spec)(node.metadata.labels ?? {}, name)) {
    return { shouldRun: false, shouldContinueRunning: false };
  }
  const tolerations = withDaemonTolerations(template);
  const untolerated = (effect: Taint['effect']) => (node.spec?.taints ?? [])
    .some((taint) => taint.effect === effect && !tolerations.some((t) => toleratesTaint(t, taint)));
  if (untolerated('NoExecute')) return { shouldRun: false, shouldContinueRunning: false };
  if (untolerated('NoSchedule')) return { shouldRun: false, shouldContinueRunning: true };
  return { shouldRun: true, shouldContinueRunning: true };
}

/** GetTargetNodeName: spec.nodeName, else the single node a `metadata.name In [x]` affinity pins it to. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const affinity = pod.spec?.affinity as PodSpec['affinity'] | undefined;
  const terms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length !== 1) return undefined;
  const fields = terms[0]!.matchFields ?? [];
  const pin = fields.find((f) => f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1);
  return pin?.values?.[0];
}
