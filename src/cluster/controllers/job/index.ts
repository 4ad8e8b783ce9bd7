/**
 * Wires the Job controller and the TTL-after-finished controller into a Manager: shared Job and
 * Pod informers, pods indexed by controller uid, expectations observed from pod events.
 */
import { Jobs, Pods } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { forSelf, requestKey } from '../../../runtime/handlers.js';
import { byControllerUid, byNamespace, controllerRef, IndexNames } from '../../../runtime/indexers.js';
import type { Manager } from '../../../runtime/manager.js';
import { BackoffStore } from './backoff-store.js';
import { hasTrackingFinalizer, jobNameOf } from './job-pod.js';
import { JobPodControl } from './pod-control.js';
import { JobReconciler } from './reconcile.js';
import { TtlAfterFinishedReconciler } from './ttl-after-finished.js';
import type { Pod, Job } from '../../../api/core/index.js';

export { JobReconciler } from './reconcile.js';
export { TtlAfterFinishedReconciler, ttlExpiry } from './ttl-after-finished.js';

export interface JobControllerOptions {
  workers?: number;
}

/** Registers the `job` and `ttl-after-finished` controllers. */
export function setupJobController(mgr: Manager, options: JobControllerOptions = {}): { job: Controller; ttlAfterFinished: Controller } {
  const jobs = mgr.informerFor<Job>(Jobs);
  const pods = mgr.informerFor<Pod>(Pods);
  pods.addIndexer(IndexNames.controllerUid, byControllerUid);
  pods.addIndexer(IndexNames.namespace, byNamespace);
  const { scale: expectations, updates: statusWrites } = mgr.newExpectations('job');
  const { scale: finalizers } = mgr.newExpectations('job-finalizers');
  const events = mgr.eventRecorder('job-controller');
  const control = new JobPodControl({ client: mgr.client, events, expectations, finalizers });
  const reconciler = new JobReconciler({ client: mgr.client, jobs, pods, control, expectations, statusWrites, events, backoff: new BackoffStore() });

  const jobKeyOf = (pod: Pod): string | undefined => {
    const ref = controllerRef(pod);
    return ref?.kind === 'Job' ? requestKey({ namespace: pod.metadata.namespace, name: ref.name }) : undefined;
  };
  // Orphaned pods (owner reference stripped) still holding the finalizer go to the Job named in their label.
  const podToJob = (pod: Pod) => {
    const name = controllerRef(pod) || hasTrackingFinalizer(pod) ? jobNameOf(pod) : undefined;
    return name ? [{ namespace: pod.metadata.namespace, name }] : [];
  };
  pods.addEventHandler({
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
  });
  const job = mgr.newController({ name: 'job', reconciler, workers: options.workers ?? 5 })
    .watches(jobs, forSelf())
    .watches(pods, podToJob);
  const ttlAfterFinished = mgr.newController({ name: 'ttl-after-finished', reconciler: new TtlAfterFinishedReconciler(mgr.client, jobs), workers: options.workers ?? 5 })
    .watches(jobs, forSelf());
  return { job, ttlAfterFinished };
}
