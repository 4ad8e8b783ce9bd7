/**
 * Registration of the Advanced DaemonSet controller (`daemonset-controller`) on a Manager:
 * informers for DaemonSets, pods (by namespace and controller), nodes and ControllerRevisions; pod
 * events meet the expectations and wake the owning DaemonSet; a node that appears, goes, or changes
 * labels, taints, schedulability or true conditions wakes every DaemonSet.
 */
import { ControllerRevisions, Nodes, Pods } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import { forAllWhenChanged } from '../../runtime/handlers.js';
import type { Manager } from '../../runtime/manager.js';
import { FailedPodBackoff, type FailedBackoffOptions } from './failed-backoff.js';
import { AdvancedDaemonSetReconciler } from './reconcile.js';
import { AdvancedDaemonSets, type DaemonSet } from './types.js';
import type { ControllerRevision, Node, Pod } from '../../api/core/index.js';

export { AdvancedDaemonSetReconciler, type DaemonSetReconcilerDeps } from './reconcile.js';
export { AdvancedDaemonSets, type DaemonSet, type DaemonSetStatus } from './types.js';
export { computeStatus } from './status.js';
export { planManage } from './manage-plan.js';
export { planRollingUpdate } from './rolling-update.js';
export { nodesToUpdate } from './rollout-nodes.js';

export const advancedDaemonSetControllerName = 'daemonset-controller';

export interface AdvancedDaemonSetControllerOptions {
  /** Concurrent reconciles (default 3). */
  workers?: number;
  /** Back-off of Failed pod deletion per node (default 1 s doubling to 15 min). */
  failedPodBackoff?: FailedBackoffOptions;
  /** Enabled feature gates (e.g. FeatureGates.enabled); default: OpenKruise's defaults. */
  gates?: (name: string) => boolean;
}

/** The caches the reconciler reads, by the names it knows them. */
interface Caches {
  daemonSets: DaemonSet;
  pods: Pod;
  nodes: Node;
  revisions: ControllerRevision;
}

export function setupAdvancedDaemonSetController(mgr: Manager, options: AdvancedDaemonSetControllerOptions = {}): Controller {
  return mgr.controllerFor<Caches>(advancedDaemonSetControllerName, { workers: options.workers ?? 3, expectationsName: 'daemonset' })
    .for('daemonSets', AdvancedDaemonSets)
    .owns('pods', Pods, { indexes: ['namespace'], expectations: 'scale' })
    // a deleted pod's own update expectation can never be met: drop it
    .observes('pods', ({ expectations: { updates } }) => ({ onDelete: (pod) => updates.delete(`${pod.metadata.namespace}/${pod.metadata.name}`) }))
    .watches('nodes', Nodes, ({ informers }) => forAllWhenChanged(informers.daemonSets, placementFields))
    .owns('revisions', ControllerRevisions)
    .complete(({ informers, client, expectations, events }) => new AdvancedDaemonSetReconciler({
      ...informers, client, expectations: expectations.scale, podUpdates: expectations.updates, events,
      backoff: new FailedPodBackoff(options.failedPodBackoff),
      envFromMetadata: options.gates ? options.gates('InPlaceUpdateEnvFromMetadata') : true,
    }));
}

/** The node fields placement depends on; heartbeats and other status churn are ignored. */
function placementFields(node: Node): unknown {
  const trueConditions = (node.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).sort();
  return [node.metadata.labels, node.spec?.taints, node.spec?.unschedulable, trueConditions];
}
