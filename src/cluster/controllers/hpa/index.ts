/**
 * Wires the HorizontalPodAutoscaler controller (docs/design/autoscaling.md): each HPA is its own
 * request, requeued every sync period; pods are cached for the replica calculation.
 */
import { HorizontalPodAutoscalers, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import type { Manager } from '../../../runtime/manager.js';
import { HpaReconciler, type Hpa, type HpaOptions } from './reconcile.js';
import type { Pod } from '../../../api/core/index.js';

export { HpaReconciler, type HpaOptions } from './reconcile.js';

export function setupHpaController(mgr: Manager, options: HpaOptions = {}): Controller {
  return mgr.controllerFor<{ hpas: Hpa; pods: Pod }>('horizontal-pod-autoscaler', { workers: 2 })
    .for('hpas', HorizontalPodAutoscalers)
    .reads('pods', Pods)
    .complete(({ informers, client, clock, events }) => new HpaReconciler({ ...informers, client, clock, events, mapper: mgr.client }, options));
}
