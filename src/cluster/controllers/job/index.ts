/**
 * Wires the Job controller and the TTL-after-finished controller into a Manager: shared Job and
 * Pod informers, pods indexed by controller uid, expectations observed from pod events.
 */
import { Jobs, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import { requestKey, type MapFunc } from '../../../runtime/handlers.js';
import { controllerRef } from '../../../runtime/indexers.js';
import type { EventHandler } from '../../../runtime/informer.js';
import type { Manager } from '../../../runtime/manager.js';
import { BackoffStore } from './backoff-store.js';
import { hasTrackingFinalizer, jobNameOf } from './job-pod.js';
import { JobPodControl } from './pod-control.js';
import { JobReconciler } from './reconcile.js';
import { trackedByJob, trackedByJobIndex } from './tracked-index.js';
import { TtlAfterFinishedReconciler } from './ttl-after-finished.js';
import type { Pod, Job } from '../../../api/core/index.js';

export { JobReconciler } from './reconcile.js';
export { TtlAfterFinishedReconciler, ttlExpiry } from './ttl-after-finished.js';

export interface JobControllerOptions {
  workers?: number;
}

/** Registers the `job` and `ttl-after-finished` controllers. */
export function setupJobController(mgr: Manager, options: JobControllerOptions = {}): { job: Controller; ttlAfterFinished: Controller } {
  const workers = options.workers ?? 5;
  const { scale: finalizers } = mgr.newExpectations('job-finalizers');
  const job = mgr.controllerFor<{ jobs: Job; pods: Pod }>('job', { workers, eventSource: 'job-controller' })
    .for('jobs', Jobs)
    // pod events are batched per Job for a second, as kube's syncJobBatchPeriod does
    .watches('pods', Pods, () => podToJob, { indexes: ['controllerUid'], batchMs: syncJobBatchMs })
    .withIndex('pods', trackedByJobIndex, trackedByJob)
    .observes('pods', ({ expectations }) => observeJobPods(expectations.scale, finalizers))
    .complete(({ informers, client, expectations: { scale: expectations, updates: statusWrites }, events }) => {
      const control = new JobPodControl({ client, events, expectations, finalizers });
      return new JobReconciler({ ...informers, client, control, expectations, statusWrites, events, backoff: new BackoffStore() });
    });
  const ttlAfterFinished = mgr.controllerFor<{ jobs: Job }>('ttl-after-finished', { workers })
    .for('jobs', Jobs)
    .complete(({ informers, client }) => new TtlAfterFinishedReconciler(client, informers.jobs));
  return { job, ttlAfterFinished };
}

/** kube's syncJobBatchPeriod: a burst of pod events syncs their Job once. */
export const syncJobBatchMs = 1000;

/** Orphaned pods (owner reference stripped) still holding the finalizer go to the Job named in their label. */
const podToJob: MapFunc<Pod> = (pod) => {
  const name = controllerRef(pod) || hasTrackingFinalizer(pod) ? jobNameOf(pod) : undefined;
  return name ? [{ namespace: pod.metadata.namespace, name }] : [];
};

/** Pods appearing and going meet the Job's expectations; a pod losing its tracking finalizer meets `finalizers`. */
function observeJobPods(expectations: ScaleExpectations, finalizers: ScaleExpectations): EventHandler<Pod> {
  const jobKeyOf = (pod: Pod): string | undefined => {
    const ref = controllerRef(pod);
    return ref?.kind === 'Job' ? requestKey({ namespace: pod.metadata.namespace, name: ref.name }) : undefined;
  };
  return {
    onAdd: (pod) => {
      const key = jobKeyOf(pod);
      if (key) expectations.observe(key, 'create', pod.metadata.name!);
    },
    onUpdate: (_old, pod) => {
      const key = jobKeyOf(pod);
      if (!key) return;
      if (pod.metadata.deletionTimestamp) expectations.observe(key, 'delete', pod.metadata.name!);
      if (!hasTrackingFinalizer(pod)) finalizers.observe(key, 'delete', pod.metadata.uid!);
    },
    onDelete: (pod) => {
      const key = jobKeyOf(pod);
      if (!key) return;
      expectations.observe(key, 'delete', pod.metadata.name!);
      finalizers.observe(key, 'delete', pod.metadata.uid!);
    },
  };
}
