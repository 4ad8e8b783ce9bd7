/**
 * Registration of the node lifecycle controller on a Manager: Nodes, their Leases in
 * kube-node-lease and Pods (indexed by node). Lease renewals and node heartbeats are recorded
 * as they reach the cache, on the manager's clock; a pod still Ready on a node brings its node back
 * for a look, so pods reported Ready on an unreachable node are marked not Ready again.
 */
import { Leases, Nodes, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { type MapFunc } from '../../../runtime/handlers.js';
import type { Manager } from '../../../runtime/manager.js';
import { isPodReady } from '../../../control/podutil/index.js';
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
  const health = new NodeHealthTracker(mgr.clock);
  return mgr.controllerFor<{ nodes: Node; leases: Lease; pods: Pod }>('node-lifecycle', { workers: options.workers ?? 1, eventSource: 'node-controller' })
    .for('nodes', Nodes)
    .watches('leases', Leases, () => leaseToNode, { selection: { namespace: nodeLeaseNamespace } })
    .watches('pods', Pods, () => readyPodToNode, { indexes: ['nodeName'] })
    .observes('nodes', () => ({ onAdd: (n) => health.observeNode(n), onUpdate: (_, n) => health.observeNode(n) }))
    .observes('leases', () => ({ onAdd: (l) => health.observeLease(l), onUpdate: (_, l) => health.observeLease(l) }))
    .complete(({ informers: { nodes, pods }, client, events }) => new NodeLifecycleReconciler({
      client, nodes, pods, health, events, gracePeriodMs, startupGracePeriodMs,
    }));
}

const leaseToNode: MapFunc<Lease> = (lease) => [{ name: lease.metadata.name! }];

const readyPodToNode: MapFunc<Pod> = (pod) => {
  const node = pod.spec?.nodeName;
  return node && isPodReady(pod) ? [{ name: node }] : [];
};
