/**
 * The pass's picture of the cluster for one DaemonSet: each node with its placement and the daemon
 * pods targeting it (terminating ones included), plus pods pinned to nodes that do not exist.
 */
import { nodeShouldRunDaemonPod, type DaemonPlacement } from '../../machinery/scheduling/index.js';
import { podTarget } from './pods.js';
import type { Node, Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

export interface NodeView {
  name: string;
  node: Node;
  placement: DaemonPlacement;
  /** Daemon pods targeting this node (by nodeName or the metadata.name affinity pin). */
  pods: Pod[];
}

export interface ClusterView {
  /** Every existing node, sorted by name. */
  nodes: NodeView[];
  /** Pods targeting a node that does not exist, by target name. */
  missing: Map<string, Pod[]>;
}

export function buildClusterView(ds: DaemonSet, nodes: readonly Node[], pods: readonly Pod[]): ClusterView {
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const target = podTarget(pod);
    if (target === undefined) continue;
    const list = byNode.get(target);
    if (list) list.push(pod);
    else byNode.set(target, [pod]);
  }
  const spec = ds.spec.template.spec as Parameters<typeof nodeShouldRunDaemonPod>[1];
  const views = [...nodes]
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
    .map((node): NodeView => {
      const name = node.metadata.name ?? '';
      const view = { name, node, placement: nodeShouldRunDaemonPod(node, spec), pods: byNode.get(name) ?? [] };
      byNode.delete(name);
      return view;
    });
  return { nodes: views, missing: byNode };
}

/** Unbound pods pinned to nodes that do not exist: nothing else (PodGC) will ever remove them. */
export function unscheduledPodsWithoutNode(view: ClusterView): Pod[] {
  return [...view.missing.values()].flat().filter((p) => !p.spec.nodeName && !p.metadata.deletionTimestamp);
}
