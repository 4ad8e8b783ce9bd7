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
  return mgr.controllerFor<{ pods: Pod }>(podReadinessControllerName, { workers: options.workers ?? 16 })
    .for('pods', Pods, { when: needsReadyCondition })
    .complete(({ informers, client }) => new PodReadinessReconciler({ client, pods: informers.pods }));
}
