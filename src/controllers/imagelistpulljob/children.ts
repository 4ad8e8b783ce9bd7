/**
 * An ImageListPullJob's children (docs/design/image-pulling.md §5): one ImagePullJob per image,
 * carrying the template and the template hash; the status sums them. Pure helpers.
 */
import { ImageListPullJobRevisionHashLabel } from '../../api/kruise/ops/imagelistpulljob.js';
import type { ImageListPullJobObject as ListJob, ImagePullJobObject as Job } from '../../control/imagejob/index.js';
import { computeObjectHash } from '../../machinery/hash.js';
import { newControllerRef } from '../../control/ownership/index.js';

export type ListJobStatus = NonNullable<ListJob['status']>;

/** Everything but the images: what every child shares. */
export function templateOf(job: ListJob): Omit<NonNullable<ListJob['spec']>, 'images'> {
  const { images: _images, ...template } = job.spec!;
  return template;
}

export const templateHash = (job: ListJob): string => computeObjectHash(templateOf(job));

export function newChild(job: ListJob, image: string, hash: string): Job {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob',
    metadata: {
      generateName: `${job.metadata.name}-`, namespace: job.metadata.namespace, labels: { [ImageListPullJobRevisionHashLabel]: hash },
      ownerReferences: [newControllerRef(job, 'apps.kruise.io/v1beta1', 'ImageListPullJob')],
    },
    spec: { ...structuredClone(templateOf(job)), image },
  };
}

export function listJobStatus(job: ListJob, children: Map<string, Job>, now: string): ListJobStatus {
  const status: ListJobStatus = { startTime: job.status?.startTime ?? now, desired: job.spec!.images.length, active: 0, completed: 0, succeeded: 0 };
  const failed: NonNullable<ListJobStatus['failedImageStatuses']> = [];
  for (const image of job.spec!.images) {
    const s = children.get(image)?.status;
    if (!s?.startTime) continue;
    if ((s.active ?? 0) > 0) status.active!++;
    if (s.desired === (s.succeeded ?? 0) + (s.failed ?? 0)) status.completed!++;
    if (s.desired === (s.succeeded ?? 0)) status.succeeded!++;
    const child = children.get(image)!;
    if ((s.failed ?? 0) > 0) {
      failed.push({ imagePullJob: child.metadata.name, name: image, message: `Please check for details, kubectl get ImagePullJob ${child.metadata.name} -n ${child.metadata.namespace}` });
    }
  }
  if (failed.length > 0) status.failedImageStatuses = failed;
  if (job.spec!.completionPolicy?.type !== 'Never' && status.completed === status.desired) status.completionTime = job.status?.completionTime ?? now;
  return status;
}
