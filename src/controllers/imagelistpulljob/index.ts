/**
 * Registration of imagelistpulljob-controller (gate ImagePullJobGate): its jobs, and the child
 * ImagePullJobs they control. docs/design/image-pulling.md §5.
 */
import { ImageListPullJobs, ImagePullJobs } from '../../api/kruise/resource-types.js';
import type { ImageListPullJobObject, ImagePullJobObject } from '../../control/imagejob/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { ImageListPullJobReconciler } from './reconcile.js';

export const imageListPullJobControllerName = 'imagelistpulljob-controller';

interface Caches { listJobs: ImageListPullJobObject; jobs: ImagePullJobObject }

export function setupImageListPullJobController(mgr: Manager): Controller {
  return mgr.controllerFor<Caches>(imageListPullJobControllerName, { workers: 3 })
    .for('listJobs', ImageListPullJobs)
    .owns('jobs', ImagePullJobs)
    .complete(({ informers, client }) => new ImageListPullJobReconciler({ client, listJobs: informers.listJobs, jobs: informers.jobs }));
}
