/**
 * Wires the CronJob controller into a Manager: CronJob and Job informers (Jobs indexed by
 * controller uid); a Job event wakes its owning CronJob, and each sync requeues itself for the next
 * activation on the manager's clock.
 */
import { CronJobs, Jobs } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import { forControllerOwner, forSelf } from '../../../runtime/handlers.js';
import { byControllerUid, IndexNames } from '../../../runtime/indexers.js';
import type { Manager } from '../../../runtime/manager.js';
import { CronJobReconciler } from './reconcile.js';
import type { OwnedJob } from './types.js';
import type { CronJob } from '../../../api/core/index.js';

export { CronJobReconciler } from './reconcile.js';

export interface CronJobControllerOptions {
  workers?: number;
}

export function setupCronJobController(mgr: Manager, options: CronJobControllerOptions = {}): Controller {
  const cronJobs = mgr.informerFor<CronJob>(CronJobs);
  const jobs = mgr.informerFor<OwnedJob>(Jobs);
  jobs.addIndexer(IndexNames.controllerUid, byControllerUid);
  const { updates: statusWrites } = mgr.newExpectations('cronjob');
  const reconciler = new CronJobReconciler({ client: mgr.client, cronJobs, jobs, events: mgr.eventRecorder('cronjob-controller'), statusWrites });
  return mgr.newController({ name: 'cronjob', reconciler, workers: options.workers ?? 5 })
    .watches(cronJobs, forSelf())
    .watches(jobs, forControllerOwner('CronJob', 'batch'));
}
