/**
 * Registration of cloneset-image-predownload (gate PreDownloadImageForInPlaceUpdate): CloneSets,
 * their revisions, and the ImagePullJobs they control. docs/design/image-pulling.md §10.
 */
import type { ControllerRevision } from '../../api/core/index.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { CloneSets, ImagePullJobs } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { ImagePreDownloadReconciler } from './reconcile.js';

export const imagePreDownloadControllerName = 'cloneset-image-predownload';

interface Caches { sets: CloneSet; revisions: ControllerRevision; jobs: ImagePullJobObject }

export function setupImagePreDownloadController(mgr: Manager): Controller {
  return mgr.controllerFor<Caches>(imagePreDownloadControllerName, { workers: 2, eventSource: 'cloneset-controller' })
    .for('sets', CloneSets)
    .reads('revisions', ControllerRevisions)
    .owns('jobs', ImagePullJobs, { indexes: ['namespace'] })
    .complete(({ informers, client, events }) => new ImagePreDownloadReconciler({ client, events, ...informers }));
}
