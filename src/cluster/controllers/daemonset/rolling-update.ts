/**
 * The DaemonSet RollingUpdate step as pure planning. Without surge: old pods are deleted (the manage
 * step then recreates them) while fewer than maxUnavailable nodes lack an available updated pod;
 * old pods that are not available anyway go at once. With maxSurge: a new pod is started next to an
 * old one on up to maxSurge nodes, and the old pod is deleted once the new one is available.
 */
import { isPodAvailable } from '../../../control/podutil/index.js';
import type { NodePods } from './manage-plan.js';
import { isPodUpdated } from './types.js';
import { scaledValue } from '../../../machinery/int-or-percent.js';
import type { Pod, DaemonSet } from '../../../api/core/index.js';

export { scaledValue };

/** maxSurge and maxUnavailable over the nodes that should run the daemon (never both zero). */
export function updateBudget(ds: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
  const rolling = ds.spec?.updateStrategy?.rollingUpdate;
  const maxSurge = scaledValue(rolling?.maxSurge, desired, true);
  let maxUnavailable = scaledValue(rolling?.maxUnavailable ?? (maxSurge > 0 ? 0 : 1), desired, true);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

export interface RollingPlan {
  delete: Pod[];
  /** Nodes to start a surge pod on. */
  createOn: string[];
}

/** The old and new pod of a node, or undefined when it has several of either (manage sorts that out). */
function podsOnNode(ds: DaemonSet, pods: Pod[], hash: string): { updated?: Pod; old?: Pod } | undefined {
  const live = pods.filter((p) => !p.metadata.deletionTimestamp);
  const updated = live.filter((p) => isPodUpdated(p, hash, ds));
  const old = live.filter((p) => !isPodUpdated(p, hash, ds));
  if (updated.length > 1 || old.length > 1) return undefined;
  return { updated: updated[0], old: old[0] };
}

export function planRollingUpdate(ds: DaemonSet, views: NodePods[], hash: string, now: number): RollingPlan {
  const eligible = views.filter((v) => v.placement.shouldRun);
  const { maxSurge, maxUnavailable } = updateBudget(ds, eligible.length);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(p, minReady, now);
  const nodes = eligible.flatMap((v) => {
    const found = podsOnNode(ds, v.pods, hash);
    return found ? [{ name: v.node.metadata.name!, ...found }] : [];
  });
  return maxSurge > 0 ? planWithSurge(nodes, available, maxSurge) : planWithoutSurge(nodes, available, maxUnavailable);
}

interface NodeState {
  name: string;
  updated?: Pod;
  old?: Pod;
}

function planWithoutSurge(nodes: NodeState[], available: (p: Pod) => boolean, maxUnavailable: number): RollingPlan {
  let unavailable = 0;
  const replaceNow: Pod[] = [];
  const candidates: Pod[] = [];
  for (const { updated, old } of nodes) {
    if (!old || updated) {
      // Missing, doubled (manage sorts both out) or updated but not yet available: all count as unavailable.
      if (!updated || old || !available(updated)) unavailable++;
    } else if (!available(old)) replaceNow.push(old);
    else candidates.push(old);
  }
  const room = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.length));
  return { delete: [...replaceNow, ...candidates.slice(0, room)], createOn: [] };
}

function planWithSurge(nodes: NodeState[], available: (p: Pod) => boolean, maxSurge: number): RollingPlan {
  let surging = 0;
  const replaceNow: string[] = [];
  const candidates: string[] = [];
  const retire: Pod[] = [];
  for (const { name, updated, old } of nodes) {
    if (!old) continue;
    if (!updated) (available(old) ? candidates : replaceNow).push(name);
    else if (!available(updated)) surging++;
    else retire.push(old);
  }
  const room = Math.max(0, Math.min(maxSurge - surging, candidates.length));
  return { delete: retire, createOn: [...replaceNow, ...candidates.slice(0, room)] };
}
