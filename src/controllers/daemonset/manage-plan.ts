/**
 * The manage step as pure planning (docs/design/advanced-daemonset.md §7, upstream podsShouldBeOnNode):
 * an eligible node without a pod gets one; Failed pods are deleted under a per-node back-off;
 * PreparingDelete pods are delete candidates; without surge only the oldest running pod stays,
 * with surge the oldest new and oldest old pod stay until the new one is available (or the old one
 * is not ready); nodes the daemon may no longer run on lose all pods, as do unbound pods pinned to
 * nodes that are gone. With partitionedScaling the partition also limits creations.
 */
import { allowSurge, partitionOf } from './budget.js';
import type { FailedPodBackoff } from './failed-backoff.js';
import { type ClusterView, type NodeView, unscheduledPodsWithoutNode } from './node-view.js';
import { availability, isPodReady, isPodUpdated, isPreDeleting, oldestFirst, updatedPodsOnNode } from './pods.js';
import type { Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

export interface ManagePlan {
  /** Nodes to create a daemon pod on, ascending. */
  createOn: string[];
  delete: Pod[];
  /** Failed pods among `delete`, each reported with event FailedDaemonPod. */
  failed: { pod: Pod; node: string }[];
  requeueAfterMs?: number;
}

interface PlanContext {
  ds: DaemonSet;
  hash: string;
  now: number;
  backoff: FailedPodBackoff;
  plan: ManagePlan;
}

const minOf = (a: number | undefined, b: number): number => (a === undefined ? b : Math.min(a, b));

export function planManage(ds: DaemonSet, view: ClusterView, hash: string, now: number, backoff: FailedPodBackoff): ManagePlan {
  const c: PlanContext = { ds, hash, now, backoff, plan: { createOn: [], delete: [], failed: [] } };
  for (const node of view.nodes) planNode(c, node);
  c.plan.delete.push(...unscheduledPodsWithoutNode(view));
  c.plan.createOn = limitCreations(ds, view, hash, c.plan.createOn.sort());
  return c.plan;
}

function planNode(c: PlanContext, { name, placement, pods }: NodeView): void {
  const { plan } = c;
  if (placement.shouldRun && pods.length === 0) {
    plan.createOn.push(name);
    return;
  }
  const live = pods.filter((p) => !p.metadata.deletionTimestamp);
  if (!placement.shouldContinueRunning) {
    plan.delete.push(...live);
    return;
  }
  const running: Pod[] = [];
  for (const pod of live) {
    if (pod.status?.phase === 'Failed') {
      const key = `${c.ds.metadata.uid}/${c.ds.status?.observedGeneration ?? 0}/${name}`;
      const wait = c.backoff.remaining(key, c.now);
      if (wait > 0) {
        plan.requeueAfterMs = minOf(plan.requeueAfterMs, wait);
        continue;
      }
      c.backoff.next(key, c.now);
      plan.delete.push(pod);
      plan.failed.push({ pod, node: name });
    } else if (isPreDeleting(pod)) {
      plan.delete.push(pod);
    } else {
      running.push(pod);
    }
  }
  running.sort(oldestFirst);
  if (!allowSurge(c.ds)) {
    plan.delete.push(...running.slice(1));
    return;
  }
  if (running.length === 0) {
    if (placement.shouldRun) plan.createOn.push(name);
    return;
  }
  planSurgeNode(c, running);
}

/** Keeps the oldest new and the oldest old pod; the old one goes once the new one can replace it. */
function planSurgeNode(c: PlanContext, running: Pod[]): void {
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    const updated = isPodUpdated(pod, c.hash, c.ds);
    if (updated && !oldestNew) oldestNew = pod;
    else if (!updated && !oldestOld) oldestOld = pod;
    else c.plan.delete.push(pod);
  }
  if (!oldestNew || !oldestOld) return;
  const minReady = c.ds.spec.minReadySeconds ?? 0;
  const fresh = availability(oldestNew, minReady, c.now);
  if (!isPodReady(oldestOld) || fresh.available) c.plan.delete.push(oldestOld);
  else if (fresh.waitMs !== undefined) c.plan.requeueAfterMs = minOf(c.plan.requeueAfterMs, fresh.waitMs);
}

/** GetNodesNeedingPods: with partitionedScaling, at most `desired - nodesWithNewPod - partition`, ascending. */
function limitCreations(ds: DaemonSet, view: ClusterView, hash: string, createOn: string[]): string[] {
  const strategy = ds.spec.updateStrategy;
  const partition = partitionOf(ds);
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate' || !strategy?.rollingUpdate || partition === 0) return createOn;
  if (!ds.spec.scaleStrategy?.partitionedScaling) return createOn;
  const desired = view.nodes.filter((n) => n.placement.shouldRun).length;
  const withNew = view.nodes.filter((n) => {
    const found = updatedPodsOnNode(n.pods, hash, ds);
    return found.ok && found.newPod !== undefined;
  }).length;
  const maxCreate = Math.max(desired - withNew - Math.min(partition, desired), 0);
  return createOn.slice(0, maxCreate);
}
