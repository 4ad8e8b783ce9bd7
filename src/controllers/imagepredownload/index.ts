/**
 * Registration of the image pre-download controllers, one per workload kind (docs/design/image-pulling.md
 * §10): the workloads, their revisions (by controller UID), and the ImagePullJobs they control.
 */
import type { ControllerRevision } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { ImagePreDownloadReconciler } from './reconcile.js';
import { cloneSetTarget, daemonSetTarget, statefulSetTarget, type PreDownloadTarget } from './targets.js';

export const imagePreDownloadControllerName = 'cloneset-image-predownload';

interface Caches { sets: KObject; revisions: ControllerRevision; jobs: ImagePullJobObject }

function setup<T extends KObject>(mgr: Manager, name: string, eventSource: string, target: PreDownloadTarget<T>): Controller {
  return mgr.controllerFor<Caches>(name, { workers: 2, eventSource })
    .for('sets', target.resource)
    .reads('revisions', ControllerRevisions, { indexes: ['controllerUid'] })
    .owns('jobs', ImagePullJobs, { indexes: ['namespace'] })
    .complete(({ informers, client, events }) => new ImagePreDownloadReconciler<T>({
      client, events, target, sets: informers.sets as never, revisions: informers.revisions, jobs: informers.jobs,
    }));
}

/** Gate PreDownloadImageForInPlaceUpdate. */
export const setupImagePreDownloadController = (mgr: Manager): Controller =>
  setup(mgr, imagePreDownloadControllerName, 'cloneset-controller', cloneSetTarget);

/** Gate PreDownloadImageForInPlaceUpdate. */
export const setupStatefulSetImagePreDownloadController = (mgr: Manager): Controller =>
  setup(mgr, 'statefulset-image-predownload', 'statefulset-controller', statefulSetTarget);

/** Gate PreDownloadImageForDaemonSetUpdate. */
export const setupDaemonSetImagePreDownloadController = (mgr: Manager): Controller =>
  setup(mgr, 'daemonset-image-predownload', 'daemonset-controller', daemonSetTarget);
