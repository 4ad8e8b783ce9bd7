/**
 * One RollingUpdate step as pure planning (docs/design/advanced-daemonset.md §9, upstream rollingUpdate),
 * over the nodes nodesToUpdate allows, in that order.
 * - No surge: a node with no pod, with both an old and a new pod, or with an unavailable or
 *   pre-deleting new pod counts as unavailable. Unavailable old pods are always replaced; available
 *   ones only up to `maxUnavailable - unavailable`. The caller updates them in place or deletes them
 *   (the manage step then creates the replacement).
 * - Surge: an old pod that is not available gets a new pod next to it at once; available old pods
 *   get one on up to `maxSurge - inFlight` nodes; an old pod whose new pod is available is deleted.
 */
import type { NodeView } from './node-view.js';
import { availability, isPreDeleting, updatedPodsOnNode } from './pods.js';
import type { Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

export interface RollingPlan {
  /** Old pods to replace (in place when possible, else deleted). */
  replace: Pod[];
  /** Nodes to start a surge pod on. */
  createOn: string[];
}

const nilOrPreDeleting = (pod: Pod | undefined): boolean => !pod || isPreDeleting(pod);

export interface RollingInput {
  ds: DaemonSet;
  nodes: readonly NodeView[];
  hash: string;
  now: number;
  maxSurge: number;
  maxUnavailable: number;
}

export function planRollingUpdate(input: RollingInput): RollingPlan {
  return input.maxSurge > 0 ? planWithSurge(input) : planWithoutSurge(input);
}

function planWithoutSurge({ ds, nodes, hash, now, maxUnavailable }: RollingInput): RollingPlan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  let unavailable = 0;
  const allowed: Pod[] = [];
  const candidates: Pod[] = [];
  for (const node of nodes) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(node.pods, hash, ds);
    if (!ok || nilOrPreDeleting(oldPod) === nilOrPreDeleting(newPod)) {
      unavailable++;
    } else if (newPod) {
      if (!availability(newPod, minReady, now).available) unavailable++;
      if (isPreDeleting(newPod)) unavailable++;
    } else if (!availability(oldPod!, minReady, now).available) {
      allowed.push(oldPod!);
    } else if (unavailable < maxUnavailable) {
      candidates.push(oldPod!);
    }
  }
  const room = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
  return { replace: [...allowed, ...candidates.slice(0, room)], createOn: [] };
}

function planWithSurge({ ds, nodes, hash, now, maxSurge }: RollingInput): RollingPlan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  let surging = 0;
  const allowed: string[] = [];
  const candidates: string[] = [];
  const retire: Pod[] = [];
  for (const node of nodes) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(node.pods, hash, ds);
    if (!ok) {
      surging++;
    } else if (nilOrPreDeleting(oldPod)) {
      // nothing to replace; the manage step handles the node
    } else if (!newPod) {
      if (!availability(oldPod!, minReady, now).available) allowed.push(node.name);
      else if (surging < maxSurge) candidates.push(node.name);
    } else if (!availability(newPod, minReady, now).available || isPreDeleting(newPod)) {
      surging++;
    } else {
      retire.push(oldPod!);
    }
  }
  const room = Math.min(Math.max(maxSurge - surging, 0), candidates.length);
  return { replace: retire, createOn: [...allowed, ...candidates.slice(0, room)] };
}
