/**
 * Which nodes a rolling update may touch (docs/design/advanced-daemonset.md §9, upstream
 * filterDaemonPodsNodeToUpdate): existing nodes that have daemon pods or should run one, walked
 * from the largest name down, ordered as nodes already updated (or with excess pods), nodes with
 * no or a pre-deleting old pod, then the nodes matching rollingUpdate.selector (all others when no
 * selector); the first `nodes - partition` are kept, so the smallest names stay on the old revision.
 */
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { partitionOf } from './budget.js';
import type { NodeView } from './node-view.js';
import { isPreDeleting, updatedPodsOnNode } from './pods.js';
import type { DaemonSet } from './types.js';

/** Nodes the rolling update considers: with pods, or eligible. */
export const rolloutCandidates = (nodes: readonly NodeView[]): NodeView[] =>
  nodes.filter((n) => n.pods.length > 0 || n.placement.shouldRun);

export function nodesToUpdate(ds: DaemonSet, nodes: readonly NodeView[], hash: string): NodeView[] {
  const candidates = [...rolloutCandidates(nodes)].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  const rawSelector = ds.spec.updateStrategy?.rollingUpdate?.selector;
  const selector = rawSelector ? selectorFromLabelSelector(rawSelector as MetaLabelSelector) : undefined;
  const updated: NodeView[] = [];
  const updating: NodeView[] = [];
  const selected: NodeView[] = [];
  const rest: NodeView[] = [];
  for (const node of candidates) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(node.pods, hash, ds);
    if (!ok || newPod) updated.push(node);
    else if (!oldPod || isPreDeleting(oldPod)) updating.push(node);
    else if (selector?.matches(node.node.metadata.labels)) selected.push(node);
    else rest.push(node);
  }
  const sorted = [...updated, ...updating, ...(selector ? selected : rest)];
  const maxUpdate = candidates.length - partitionOf(ds);
  return maxUpdate <= 0 ? [] : sorted.slice(0, maxUpdate);
}
