/**
 * Registration of advancedcronjob-controller (docs/design/jobs.md §4): its AdvancedCronJobs and
 * the Jobs, BroadcastJobs and ImageListPullJobs they control, indexed by controller UID; a child's
 * events wake its AdvancedCronJob (DEV: Jobs too, upstream misses them) and meet the create
 * expectations. Each pass requeues itself for the next fire time on the manager's clock.
 */
import { AdvancedCronJobs, BroadcastJobs, ImageListPullJobs } from '../../api/kruise/resource-types.js';
import { Jobs } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { AdvancedCronJobReconciler } from './reconcile.js';
import type { AdvancedCronJob, Child } from './types.js';

export { AdvancedCronJobReconciler } from './reconcile.js';
export const advancedCronJobControllerName = 'advancedcronjob-controller';

interface Caches { cronJobs: AdvancedCronJob; jobs: Child; broadcastJobs: Child; imageListPullJobs: Child }

export function setupAdvancedCronJobController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(advancedCronJobControllerName, { workers: options.workers ?? 3 })
    .for('cronJobs', AdvancedCronJobs)
    .owns('jobs', Jobs, { expectations: 'scale' })
    .owns('broadcastJobs', BroadcastJobs, { expectations: 'scale' })
    .owns('imageListPullJobs', ImageListPullJobs, { expectations: 'scale' })
    .complete(({ informers, client, expectations, events }) => new AdvancedCronJobReconciler({
      client, events, cronJobs: informers.cronJobs, expectations: expectations.scale, statusWrites: expectations.updates,
      children: { Job: informers.jobs, BroadcastJob: informers.broadcastJobs, ImageListPullJob: informers.imageListPullJobs },
    }));
}
