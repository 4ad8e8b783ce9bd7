/** The slice of batch/v1 CronJob (and of the Jobs it owns) the CronJob controller reads and writes. */
import type { KObject } from '../../../api/meta.js';

export const scheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KObject {
  spec?: CronJobSpec;
  status?: CronJobStatus;
}

/** The fields of a Job this controller looks at. */
export interface OwnedJob extends KObject {
  status?: {
    startTime?: string;
    completionTime?: string;
    conditions?: { type: string; status: string }[];
  };
}

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
