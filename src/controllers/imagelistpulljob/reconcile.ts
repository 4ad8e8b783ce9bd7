/**
 * imagelistpulljob-controller (docs/design/image-pulling.md §5): keeps one child ImagePullJob per
 * listed image at the current template hash (a changed template replaces every child, a removed
 * image deletes its child), sums the children into the status, and deletes the job after its TTL.
 */
import { ImageListPullJobRevisionHashLabel } from '../../api/kruise/ops/imagelistpulljob.js';
import { ImageListPullJobs, ImagePullJobs } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import type { ImageListPullJobObject as ListJob, ImagePullJobObject as Job } from '../../control/imagejob/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { rfc3339, timeOf } from '../../machinery/time.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { controllerRef } from '../../control/ownership/index.js';
import { listJobStatus, newChild, templateHash } from './children.js';

export interface ImageListPullJobDeps {
  client: Client;
  listJobs: Informer<ListJob>;
  jobs: Informer<Job>;
}

export class ImageListPullJobReconciler {
  /** Children created but maybe not cached yet: list job uid → image → child. */
  private readonly created = new Map<string, Map<string, Job>>();

  constructor(private readonly d: ImageListPullJobDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const job = this.d.listJobs.get(req.namespace, req.name);
    if (!job || job.metadata.deletionTimestamp) return;
    const hash = templateHash(job);
    if (job.metadata.labels?.[ImageListPullJobRevisionHashLabel] !== hash) {
      await this.d.client.patch(ImageListPullJobs, req.namespace, req.name, 'merge', { metadata: { labels: { [ImageListPullJobRevisionHashLabel]: hash } } });
      return;
    }
    const now = ctx.clock.now();
    if (job.status?.completionTime) return this.afterCompletion(job, now);
    const children = this.children(job);
    for (const [image, child] of children) {
      if (job.spec!.images.includes(image) && child.metadata.labels?.[ImageListPullJobRevisionHashLabel] === hash) continue;
      await this.deleteChild(child);
      children.delete(image);
      this.created.get(job.metadata.uid!)?.delete(image);
    }
    for (const image of job.spec!.images) {
      if (children.has(image)) continue;
      const child = await this.d.client.create<Job>(ImagePullJobs, newChild(job, image, hash));
      children.set(image, child);
      this.remember(job, image, child);
    }
    const status = listJobStatus(job, children, rfc3339(now));
    if (!deepEqual(status, job.status ?? {})) await this.d.client.updateStatus<ListJob>(ImageListPullJobs, { ...job, status });
  }

  /** Children by image: the cache's, with our creates not yet cached. */
  private children(job: ListJob): Map<string, Job> {
    const uid = job.metadata.uid!;
    const out = new Map<string, Job>();
    for (const child of this.d.jobs.byIndex('controllerUid', uid)) {
      if (!child.metadata.deletionTimestamp && controllerRef(child)?.uid === uid) out.set(child.spec!.image, child);
    }
    const pending = this.created.get(uid);
    for (const [image, child] of pending ?? []) {
      if (out.get(image)?.metadata.name === child.metadata.name) pending!.delete(image);
      else if (!out.has(image)) out.set(image, child);
    }
    return out;
  }

  private remember(job: ListJob, image: string, child: Job): void {
    const uid = job.metadata.uid!;
    if (!this.created.has(uid)) this.created.set(uid, new Map());
    this.created.get(uid)!.set(image, child);
  }

  private async afterCompletion(job: ListJob, now: number): Promise<Result | void> {
    const ttl = job.spec?.completionPolicy?.ttlSecondsAfterFinished;
    if (ttl === undefined || ttl === null) return;
    const left = timeOf(job.status!.completionTime)! + ttl * 1000 - now;
    if (left > 0) return { requeueAfterMs: left };
    try {
      await this.d.client.delete(ImageListPullJobs, job.metadata.namespace, job.metadata.name!, { preconditions: { uid: job.metadata.uid }, propagationPolicy: 'Background' });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  private async deleteChild(child: Job): Promise<void> {
    try {
      await this.d.client.delete(ImagePullJobs, child.metadata.namespace, child.metadata.name!, { preconditions: { uid: child.metadata.uid }, propagationPolicy: 'Background' });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }
}
