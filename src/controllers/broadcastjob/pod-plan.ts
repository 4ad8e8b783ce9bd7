/**
 * What a BroadcastJob pass sees (docs/design/jobs.md §3): its pods sorted into active, failed and
 * succeeded, and the nodes sorted into those desired (with their pod, if any), those still needing
 * a pod, and pods that no longer fit their node. Pure, so the arithmetic is tested without a cluster.
 */
import type { Node, Pod, PodSpec } from '../../api/core/index.js';
import { isPodActive } from '../../control/podutil/index.js';
import { targetNodeName } from '../../machinery/scheduling/index.js';
import { fits, mockPodSpec } from './node-fitness.js';

export interface PodCounts {
  active: Pod[];
  failed: Pod[];
  succeeded: Pod[];
}

/** Restarts of every init and app container (upstream sums them per pod). */
function restartsOf(pod: Pod): number {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return all.reduce((sum, s) => sum + (s.restartCount ?? 0), 0);
}

/** An OnFailure pod that restarted more than the limit counts as failed while it keeps running. */
export function exceededRestartLimit(pod: Pod, restartLimit: number): boolean {
  return pod.spec?.restartPolicy === 'OnFailure' && restartsOf(pod) > restartLimit;
}

/**
 * Succeeded and Failed by phase; the rest active, or failed by restarts. DEV: a pod being deleted is
 * not counted whatever its phase; upstream counts its phase, and the kubelet marks a pod it kills for
 * deletion Failed, so the job's own deletion of a pod on a cordoned node failed a FailFast job.
 */
export function classifyPods(pods: readonly Pod[], restartLimit: number): PodCounts {
  const counts: PodCounts = { active: [], failed: [], succeeded: [] };
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (pod.metadata.deletionTimestamp) continue;
    if (phase === 'Succeeded') counts.succeeded.push(pod);
    else if (phase === 'Failed') counts.failed.push(pod);
    else if (exceededRestartLimit(pod, restartLimit)) counts.failed.push(pod);
    else counts.active.push(pod);
  }
  return counts;
}

export interface NodePlan {
  /** Node name → its pod (undefined: none yet). */
  desired: Map<string, Pod | undefined>;
  /** Desired nodes without a pod, in node order. */
  toRun: string[];
  /** Pods (not being deleted) whose node no longer takes them. */
  toDelete: Pod[];
}

/** The node each pod is bound or pinned to; more than one pod on a node is reported through `duplicate`. */
export function podsByNode(pods: readonly Pod[], duplicate: (pod: Pod, node: string) => void): Map<string, Pod> {
  const byNode = new Map<string, Pod>();
  for (const pod of pods) {
    const node = targetNodeName(pod.spec) ?? '';
    if (byNode.has(node)) duplicate(pod, node);
    byNode.set(node, pod);
  }
  return byNode;
}

export function planNodes(nodes: readonly Node[], template: PodSpec | undefined, byNode: ReadonlyMap<string, Pod>): NodePlan {
  const plan: NodePlan = { desired: new Map(), toRun: [], toDelete: [] };
  for (const node of nodes) {
    const name = node.metadata.name!;
    const pod = byNode.get(name);
    if (pod) {
      if (fits(pod.spec, node)) plan.desired.set(name, pod);
      else if (!pod.metadata.deletionTimestamp) plan.toDelete.push(pod);
    } else if (fits(mockPodSpec(template, name), node)) {
      plan.desired.set(name, undefined);
      plan.toRun.push(name);
    }
  }
  return plan;
}

/** Always jobs are complete once every desired node has a pod that is no longer active. */
export function isComplete(plan: NodePlan): boolean {
  if (plan.desired.size === 0) return false;
  for (const pod of plan.desired.values()) if (!pod || isPodActive(pod)) return false;
  return true;
}
