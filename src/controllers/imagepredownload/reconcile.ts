/**
 * cloneset-image-predownload (gate PreDownloadImageForInPlaceUpdate; docs/design/image-pulling.md
 * §10): while a CloneSet rolls to a new revision in place, one ImagePullJob per changed container
 * image pulls it on the nodes of the pods still at the old revision, once enough updated pods are
 * ready; the revision is labelled so this happens once. When the rollout is done, the jobs go.
 */
import type { ControllerRevision } from '../../api/core/index.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import { controllerRef } from '../../control/ownership/index.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import { changedImages, ignoreReason, preDownloadJob, PreDownloadCreatedLabel, PreDownloadIgnoredLabel } from './plan.js';

export interface PreDownloadDeps {
  client: Client;
  sets: Informer<CloneSet>;
  revisions: Informer<ControllerRevision>;
  jobs: Informer<ImagePullJobObject>;
  events: EventRecorder;
}

export class ImagePreDownloadReconciler {
  constructor(private readonly d: PreDownloadDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const cs = this.d.sets.get(req.namespace, req.name);
    if (!cs || cs.metadata.deletionTimestamp) return;
    const { currentRevision, updateRevision } = cs.status ?? {};
    if (!updateRevision || !currentRevision) return;
    if (currentRevision === updateRevision) return this.deleteJobs(cs);
    const min = cs.spec?.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy?.imagePreDownloadMinUpdatedReadyPods ?? 0;
    if ((cs.status?.updatedReadyReplicas ?? 0) < min) return;
    const current = this.d.revisions.get(req.namespace, currentRevision);
    const update = this.d.revisions.get(req.namespace, updateRevision);
    if (!current || !update) return;
    if (update.metadata.labels?.[PreDownloadCreatedLabel] || update.metadata.labels?.[PreDownloadIgnoredLabel]) return;
    const ignored = ignoreReason(cs, current, update);
    if (ignored) {
      ctx.log.debug({ reason: ignored }, 'No image pre-download for this revision');
      return this.label(update, PreDownloadIgnoredLabel);
    }
    for (const [container, image] of changedImages(current, update)) {
      const job = preDownloadJob(cs, update, container, image);
      try {
        await this.d.client.create(ImagePullJobs, job);
        this.d.events.event(cs, 'Normal', 'CreatedImagePullJob', `created ImagePullJob ${job.metadata.name} for image: ${image}`);
      } catch (e) {
        if (isAlreadyExists(e)) continue;
        this.d.events.event(cs, 'Normal', 'FailedCreateImagePullJob', `failed to create ImagePullJob ${job.metadata.name}: ${(e as Error).message}`);
      }
    }
    await this.label(update, PreDownloadCreatedLabel);
  }

  private async label(revision: ControllerRevision, key: string): Promise<void> {
    await this.d.client.patch(ControllerRevisions, revision.metadata.namespace, revision.metadata.name!, 'strategic', { metadata: { labels: { [key]: 'true' } } });
  }

  private async deleteJobs(cs: CloneSet): Promise<void> {
    for (const job of this.d.jobs.byIndex('namespace', cs.metadata.namespace!)) {
      if (controllerRef(job)?.uid !== cs.metadata.uid) continue;
      try {
        await this.d.client.delete(ImagePullJobs, job.metadata.namespace, job.metadata.name!);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
