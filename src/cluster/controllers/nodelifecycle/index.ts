/**
 * Registration of the node lifecycle controller on a Manager: Nodes, their Leases in
 * kube-node-lease and Pods (indexed by node). Lease renewals and node heartbeats are recorded
 * as they reach the cache, on the manager's clock; a pod still Ready on a node brings its node back
 * for a look, so pods reported Ready on an unreachable node are marked not Ready again.
 */
import { Leases, Nodes, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { forSelf, type MapFunc } from '../../../runtime/handlers.js';
import { byNodeName, IndexNames } from '../../../runtime/indexers.js';
import type { Manager } from '../../../runtime/manager.js';
import { isPodReady } from '../shared/podutil.js';
import { NodeHealthTracker } from './health.js';
import { NodeLifecycleReconciler } from './reconcile.js';
import type { Lease, Node, Pod } from '../../../api/core/index.js';

export { NodeLifecycleReconciler } from './reconcile.js';
export { NodeHealthTracker } from './health.js';

export const nodeLeaseNamespace = 'kube-node-lease';

export interface NodeLifecycleControllerOptions {
  /** How long a node may go without renewing its lease (kube-controller-manager's --node-monitor-grace-period, 40 s). */
  gracePeriodMs?: number;
  /** The same for a node that never posted a Ready condition (upstream's node startup grace period, 60 s). */
  startupGracePeriodMs?: number;
  workers?: number;
}

export function setupNodeLifecycleController(mgr: Manager, options: NodeLifecycleControllerOptions = {}): Controller {
  const gracePeriodMs = options.gracePeriodMs ?? 40_000;
  const startupGracePeriodMs = options.startupGracePeriodMs ?? 60_000;
  if (gracePeriodMs <= 0 || startupGracePeriodMs <= 0) throw new Error('node lifecycle grace periods must be positive');
  const nodes = mgr.informerFor<Node>(Nodes);
  const leases = mgr.informerFor<Lease>(Leases, { namespace: nodeLeaseNamespace });
  const pods = mgr.informerFor<Pod>(Pods);
  pods.addIndexer(IndexNames.nodeName, byNodeName);
  const health = new NodeHealthTracker(mgr.clock);
  nodes.addEventHandler({ onAdd: (n) => health.observeNode(n), onUpdate: (_, n) => health.observeNode(n) });
  leases.addEventHandler({ onAdd: (l) => health.observeLease(l), onUpdate: (_, l) => health.observeLease(l) });
  const reconciler = new NodeLifecycleReconciler({
    client: mgr.client, nodes, pods, health, events: mgr.eventRecorder('node-controller'), gracePeriodMs, startupGracePeriodMs,
  });
  return mgr.newController({ name: 'node-lifecycle', reconciler, workers: options.workers ?? 1 })
    .watches(nodes, forSelf())
    .watches(leases, (lease) => [{ name: lease.metadata.name! }])
    .watches(pods, readyPodToNode);
}

const readyPodToNode: MapFunc<Pod> = (pod) => {
  const node = pod.spec?.nodeName;
  return node && isPodReady(pod) ? [{ name: node }] : [];
};
