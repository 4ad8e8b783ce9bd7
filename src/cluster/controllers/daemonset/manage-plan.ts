/**
 * One daemon pod per eligible node, as pure planning (upstream's manage / podsShouldBeOnNode): a
 * node that should run the daemon and has no pod gets one; finished pods are deleted (and replaced
 * on the next sync); extra pods on a node are trimmed to the oldest (with maxSurge, an old and a new
 * pod may coexist during an update); nodes the daemon may no longer run on, and nodes that no
 * longer exist, lose their pods.
 */
import { nodeShouldRunDaemonPod, targetNodeName, type DaemonPlacement } from '../../../machinery/scheduling/index.js';
import { isPodUpdated } from './types.js';
import type { Node, Pod, DaemonSet } from '../../../api/core/index.js';
import { oldestFirst } from '../../../machinery/order.js';

export interface NodePods {
  node: Node;
  placement: DaemonPlacement;
  /** The daemon pods pinned to or running on this node, terminating ones included. */
  pods: Pod[];
}

/** Every node with its placement and daemon pods, plus the pods pinned to nodes that do not exist. */
export function nodesWithPods(ds: DaemonSet, nodes: Node[], pods: Pod[]): { nodes: NodePods[]; orphaned: Pod[] } {
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const name = targetNodeName(pod.spec);
    if (name !== undefined) byNode.set(name, [...(byNode.get(name) ?? []), pod]);
  }
  const views = nodes.map((node) => ({ node, placement: nodeShouldRunDaemonPod(node, ds.spec?.template?.spec), pods: byNode.get(node.metadata.name!) ?? [] }));
  const known = new Set(nodes.map((n) => n.metadata.name));
  const orphaned = pods.filter((p) => {
    const target = targetNodeName(p.spec);
    return !p.spec?.nodeName && target !== undefined && !known.has(target) && !p.metadata.deletionTimestamp;
  });
  return { nodes: views, orphaned };
}

export interface ManagePlan {
  /** Nodes to create a daemon pod on. */
  createOn: string[];
  delete: Pod[];
  /** The finished (failed) pods among `delete`, reported with their own event. */
  failed: Pod[];
}


export function planManage(ds: DaemonSet, views: NodePods[], orphaned: Pod[], hash: string, surge: boolean): ManagePlan {
  const plan: ManagePlan = { createOn: [], delete: [...orphaned], failed: [] };
  for (const { node, placement, pods } of views) {
    const live = pods.filter((p) => !p.metadata.deletionTimestamp);
    if (placement.shouldRun && pods.length === 0) {
      plan.createOn.push(node.metadata.name!);
      continue;
    }
    if (!placement.shouldContinueRunning) {
      plan.delete.push(...live);
      continue;
    }
    const running: Pod[] = [];
    for (const pod of live) {
      if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
        plan.delete.push(pod);
        plan.failed.push(pod);
      } else running.push(pod);
    }
    plan.delete.push(...extraPods(ds, running.sort(oldestFirst), hash, surge));
  }
  return plan;
}

/** Beyond one pod per node: keep the oldest; with surge, the oldest updated and the oldest old pod. */
function extraPods(ds: DaemonSet, running: Pod[], hash: string, surge: boolean): Pod[] {
  if (running.length <= 1) return [];
  if (!surge) return running.slice(1);
  const updated = running.filter((p) => isPodUpdated(p, hash, ds));
  const old = running.filter((p) => !isPodUpdated(p, hash, ds));
  return [...updated.slice(1), ...old.slice(1)];
}
