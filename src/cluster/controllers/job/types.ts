/** The slice of batch/v1 Job the Job and TTL-after-finished controllers read and write. */
import type { KObject } from '../../../api/meta.js';
import type { MetaLabelSelector } from '../../../machinery/labels.js';
import type { PodTemplateSpec } from '../shared/types.js';

export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';
export const completionIndexAnnotation = 'batch.kubernetes.io/job-completion-index';
export const completionIndexLabel = 'batch.kubernetes.io/job-completion-index';

export interface JobCondition {
  type: 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet' | string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  completionMode?: 'NonIndexed' | 'Indexed';
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  selector?: MetaLabelSelector;
  template?: PodTemplateSpec;
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  active?: number;
  ready?: number;
  terminating?: number;
  succeeded?: number;
  failed?: number;
  startTime?: string;
  completionTime?: string;
  completedIndexes?: string;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  conditions?: JobCondition[];
}

export interface Job extends KObject {
  spec?: JobSpec;
  status?: JobStatus;
}

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
