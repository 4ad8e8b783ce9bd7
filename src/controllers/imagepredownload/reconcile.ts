/**
 * Image pre-download for in-place rollouts (docs/design/image-pulling.md §10): while a workload rolls
 * to a new revision, one ImagePullJob per changed container image pulls it on the nodes of the pods
 * still at an old revision, once enough updated pods are ready; the revision is labelled so this
 * happens once. When the rollout is done, the jobs go. One reconciler serves every target kind.
 */
import type { ControllerRevision } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { ImagePullJobs } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import { calculateInPlaceUpdateSpec } from '../../control/inplaceupdate/index.js';
import { controllerRef } from '../../control/ownership/index.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import { IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext } from '../../runtime/reconcile.js';
import { changedImages, preDownloadJob, PreDownloadCreatedLabel, PreDownloadIgnoredLabel } from './plan.js';
import type { PreDownloadTarget, Rollout } from './targets.js';

export interface PreDownloadDeps<T extends KObject> {
  client: Client;
  target: PreDownloadTarget<T>;
  sets: Informer<T>;
  revisions: Informer<ControllerRevision>;
  jobs: Informer<ImagePullJobObject>;
  events: EventRecorder;
}

export class ImagePreDownloadReconciler<T extends KObject> {
  constructor(private readonly d: PreDownloadDeps<T>) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<void> {
    const { target } = this.d;
    const owner = this.d.sets.get(req.namespace, req.name);
    if (!owner || owner.metadata.deletionTimestamp) return;
    const rollout = target.rollout(owner, this.d.revisions.byIndex(IndexNames.controllerUid, owner.metadata.uid!));
    if (rollout === 'done') return this.deleteJobs(owner);
    if (!rollout || !target.ready(owner)) return;
    const { update } = rollout;
    if (update.metadata.labels?.[PreDownloadCreatedLabel] || update.metadata.labels?.[PreDownloadIgnoredLabel]) return;
    const ignored = this.ignoreReason(owner, rollout);
    if (ignored) {
      ctx.log.debug({ reason: ignored }, 'No image pre-download for this revision');
      return this.label(update, PreDownloadIgnoredLabel);
    }
    for (const [container, image] of changedImages(rollout.old, update)) {
      const job = preDownloadJob(target, owner, update, container, image);
      try {
        await this.d.client.create(ImagePullJobs, job);
        this.d.events.event(owner, 'Normal', 'CreatedImagePullJob', `created ImagePullJob ${job.metadata.name} for image: ${image}`);
      } catch (e) {
        if (isAlreadyExists(e)) continue;
        this.d.events.event(owner, 'Normal', 'FailedCreateImagePullJob', `failed to create ImagePullJob ${job.metadata.name}: ${(e as Error).message}`);
      }
    }
    await this.label(update, PreDownloadCreatedLabel);
  }

  private ignoreReason(owner: T, { old, update }: Rollout): string | undefined {
    const reason = this.d.target.ignoreReason(owner);
    if (reason) return reason;
    if (this.d.target.inPlaceOnly && !calculateInPlaceUpdateSpec(old[0]!, update)) return 'the revision cannot update in place';
    return undefined;
  }

  private async label(revision: ControllerRevision, key: string): Promise<void> {
    await this.d.client.patch(ControllerRevisions, revision.metadata.namespace, revision.metadata.name!, 'strategic', { metadata: { labels: { [key]: 'true' } } });
  }

  private async deleteJobs(owner: T): Promise<void> {
    for (const job of this.d.jobs.byIndex('namespace', owner.metadata.namespace!)) {
      if (controllerRef(job)?.uid !== owner.metadata.uid) continue;
      try {
        await this.d.client.delete(ImagePullJobs, job.metadata.namespace, job.metadata.name!);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
