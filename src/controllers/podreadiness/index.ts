/**
 * Registration of pod-readiness-controller on a Manager: a pod informer whose events enqueue only
 * pods that still need the KruisePodReady condition (upstream's create/update predicate).
 */
import { Pods } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { PodReadinessReconciler, needsReadyCondition } from './reconcile.js';
import type { Pod } from '../../api/core/index.js';

export { PodReadinessReconciler, needsReadyCondition, withReadyCondition } from './reconcile.js';

export const podReadinessControllerName = 'pod-readiness-controller';

/** 16 workers by default (upstream 3): a scale-up of a thousand pods must not queue behind three round trips. */
export function setupPodReadinessController(mgr: Manager, options: { workers?: number } = {}): Controller {
  const pods = mgr.informerFor<Pod>(Pods);
  const reconciler = new PodReadinessReconciler({ client: mgr.client, pods });
  return mgr.newController({ name: podReadinessControllerName, reconciler, workers: options.workers ?? 16 })
    .watches(pods, (pod) => (needsReadyCondition(pod) ? [{ namespace: pod.metadata.namespace, name: pod.metadata.name! }] : []));
}
