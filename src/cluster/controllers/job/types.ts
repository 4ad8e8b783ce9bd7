/** batch/v1 Job keys and condition helpers of the Job and TTL-after-finished controllers. */
import type { Job, JobCondition } from '../../../api/core/index.js';


export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';
export const completionIndexAnnotation = 'batch.kubernetes.io/job-completion-index';
export const completionIndexLabel = 'batch.kubernetes.io/job-completion-index';

export function jobCondition(job: Job, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

/** Complete or Failed (True): the Job is done and only cleanup remains. */
export function finishedCondition(job: Job): JobCondition | undefined {
  return jobCondition(job, 'Complete') ?? jobCondition(job, 'Failed');
}

export function isIndexed(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}
