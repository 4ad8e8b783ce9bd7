/**
 * An ImagePullJob's status from the states of its target nodes (docs/design/image-pulling.md
 * §4.4), with upstream's messages; pure.
 */
import type { ImagePullJobObject } from '../../control/imagejob/index.js';
import type { NodeState } from './node-image-tag.js';

export type JobStatus = NonNullable<ImagePullJobObject['status']>;

export const MessageCompleted = 'job has completed';
export const MessageDeadline = 'job exceeds activeDeadlineSeconds';

export function runningStatus(startTime: string, states: Map<string, NodeState>): JobStatus {
  const of = (s: NodeState) => [...states].filter(([, v]) => v === s).map(([k]) => k).sort();
  const succeeded = of('succeeded').length;
  const failedNodes = of('failed');
  const desired = states.size;
  const done = succeeded + failedNodes.length;
  return {
    startTime, desired, active: of('pulling').length, succeeded, failed: failedNodes.length,
    ...(failedNodes.length > 0 ? { failedNodes } : {}),
    message: desired === 0 ? 'job is running, no progress' : `job is running, progress ${((done / desired) * 100).toFixed(1)}%`,
  };
}

/** The deadline passed with work left: whatever has not succeeded counts as failed. */
export function deadlineStatus(status: JobStatus, states: Map<string, NodeState>, now: string): JobStatus {
  const failedNodes = [...states].filter(([, v]) => v !== 'succeeded').map(([k]) => k).sort();
  return { ...status, active: 0, failed: failedNodes.length, failedNodes, completionTime: now, message: MessageDeadline };
}

/** Parallelism as an integer (int or integer string; upstream's default 1). */
export function parallelismOf(job: ImagePullJobObject): number {
  const p = job.spec?.parallelism;
  if (p === undefined || p === null) return 1;
  const n = typeof p === 'number' ? p : parseInt(p, 10);
  return Number.isFinite(n) && n >= 0 ? n : 1;
}
