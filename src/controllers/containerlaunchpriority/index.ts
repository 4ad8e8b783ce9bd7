/**
 * Registration of containerlaunchpriority-controller (docs/design/sidecarset.md §7.2): pods that
 * wait on a barrier, are not yet marked completed and whose containers are not all ready.
 */
import type { Pod } from '../../api/core/index.js';
import { Pods } from '../../api/resource-type.js';
import { hasBarrier, LaunchPriorityCompletedAnnotation } from '../../control/launchpriority/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { LaunchPriorityReconciler } from './reconcile.js';

export const launchPriorityControllerName = 'containerlaunchpriority-controller';

const interesting = (pod: Pod): boolean => hasBarrier(pod) && !pod.metadata.deletionTimestamp
  && pod.metadata.annotations?.[LaunchPriorityCompletedAnnotation] !== 'true'
  && pod.status?.conditions?.find((c) => c.type === 'ContainersReady')?.status !== 'True';

export function setupContainerLaunchPriorityController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<{ pods: Pod }>(launchPriorityControllerName, { workers: options.workers ?? 3 })
    .for('pods', Pods, { when: interesting })
    .complete(({ informers, client }) => new LaunchPriorityReconciler({ client, pods: informers.pods }));
}
