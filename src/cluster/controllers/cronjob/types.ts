/** batch/v1 CronJob keys and the helpers over the Jobs it owns. */
import type { Job, ObjectReference } from '../../../api/core/index.js';

/** The Jobs a CronJob owns (their spec is the CronJob's job template). */
export type OwnedJob = Job;

export const scheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** 'Complete' or 'Failed' when the Job has finished. */
export function jobFinishedAs(job: OwnedJob): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? []) {
    if (c.status === 'True' && (c.type === 'Complete' || c.type === 'Failed')) return c.type;
  }
  return undefined;
}

export function jobRef(job: OwnedJob): ObjectReference {
  return {
    apiVersion: 'batch/v1', kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name,
    uid: job.metadata.uid, resourceVersion: job.metadata.resourceVersion,
  };
}
