/**
 * Wires the CronJob controller into a Manager: CronJob and Job informers (Jobs indexed by
 * controller uid); a Job event wakes its owning CronJob, and each sync requeues itself for the next
 * activation on the manager's clock.
 */
import { CronJobs, Jobs } from '../../../api/resource-type.js';
import type { Controller } from '../../../runtime/controller.js';
import type { Manager } from '../../../runtime/manager.js';
import { CronJobReconciler } from './reconcile.js';
import type { OwnedJob } from './types.js';
import type { CronJob } from '../../../api/core/index.js';

export { CronJobReconciler } from './reconcile.js';

export interface CronJobControllerOptions {
  workers?: number;
}

export function setupCronJobController(mgr: Manager, options: CronJobControllerOptions = {}): Controller {
  return mgr.controllerFor<{ cronJobs: CronJob; jobs: OwnedJob }>('cronjob', { workers: options.workers ?? 5, eventSource: 'cronjob-controller' })
    .for('cronJobs', CronJobs)
    .owns('jobs', Jobs)
    .complete(({ informers, client, events, expectations }) => new CronJobReconciler({ ...informers, client, events, statusWrites: expectations.updates }));
}
