/**
 * EphemeralJob status (docs/design/jobs.md §5): per target pod, the state of the job's ephemeral
 * containers (a failed one fails the pod; all succeeded; any running; any waiting), the counters,
 * the phase and the conditions, keyed by type. Pure: the caller passes `now`.
 */
import type { ContainerStatus, Pod } from '../../api/core/index.js';
import { rfc3339, timeOf } from '../../machinery/time.js';
import { templateContainers } from './targets.js';
import type { EphemeralJob, EphemeralJobStatus } from './types.js';

type PodState = 'succeeded' | 'failed' | 'running' | 'waiting' | 'unknown';

function containerState(s: ContainerStatus): PodState {
  const t = s.state?.terminated;
  if (t) {
    if (t.finishedAt && t.exitCode === 0) return 'succeeded';
    if (t.exitCode !== 0) return 'failed';
  }
  if (s.state?.running) return 'running';
  if (s.state?.waiting) return s.state.waiting.reason === 'RunContainerError' ? 'failed' : 'waiting';
  return 'unknown';
}

export function podState(job: EphemeralJob, pod: Pod): PodState {
  const names = new Set(templateContainers(job).map((t) => t.name));
  const statuses = (pod.status?.ephemeralContainerStatuses ?? []).filter((s) => names.has(s.name));
  if ((pod.status?.ephemeralContainerStatuses ?? []).length === 0) return 'waiting';
  const states = statuses.map(containerState);
  if (states.includes('failed')) return 'failed';
  const count = (s: PodState) => states.filter((x) => x === s).length;
  if (count('succeeded') > 0 && count('succeeded') === names.size) return 'succeeded';
  if (count('running') > 0) return 'running';
  if (count('waiting') > 0) return 'waiting';
  return 'unknown';
}

type Condition = NonNullable<EphemeralJobStatus['conditions']>[number];

/** Sets the condition of its type; an identical one keeps its times (DEV: upstream restamps it every pass). */
function withCondition(conditions: Condition[], type: string, reason: string, message: string, at: string): Condition[] {
  const existing = conditions.find((c) => c.type === type);
  if (existing && existing.reason === reason && existing.message === message && existing.status === 'True') return conditions;
  const next: Condition = { type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason, message };
  return existing ? conditions.map((c) => (c.type === type ? next : c)) : [...conditions, next];
}

export function computeStatus(job: EphemeralJob, previous: EphemeralJobStatus, targets: readonly Pod[], now: number): EphemeralJobStatus {
  const at = rfc3339(now);
  const s: EphemeralJobStatus = { ...previous, startTime: previous.startTime ?? at };
  let conditions = previous.conditions ?? [{ type: 'Initialized', status: 'True', lastProbeTime: at, lastTransitionTime: at, reason: 'Initialized', message: '' }];
  const counts = { succeeded: 0, failed: 0, running: 0, waiting: 0, unknown: 0 };
  for (const pod of targets) counts[podState(job, pod)]++;
  Object.assign(s, { match: targets.length, succeeded: counts.succeeded, failed: counts.failed, running: counts.running, waiting: counts.waiting });
  if (counts.failed > 0) conditions = withCondition(conditions, 'JobFailed', 'ContainerFailed', `${counts.failed}/${targets.length} pods have a failed ephemeral container`, at);
  if (targets.length === 0) {
    s.phase = 'Waiting';
    conditions = withCondition(conditions, 'MatchedEmpty', 'MatchEmpty', 'job match no pods', at);
  } else if (counts.running > 0) s.phase = 'Running';
  else if (counts.waiting > 0) s.phase = 'Waiting';
  else if (counts.succeeded + counts.failed === targets.length) {
    s.completionTime = at;
    s.phase = counts.failed > 0 ? 'Failed' : 'Succeeded';
    conditions = counts.failed > 0
      ? withCondition(conditions, 'JobFailed', 'JobFailed', `job failed to run all tasks, ${counts.failed}/${targets.length} pods failed`, at)
      : withCondition(conditions, 'JobSucceeded', 'JobSucceeded', 'job success to run all tasks', at);
  } else s.phase = 'Unknown';
  if (job.spec?.paused) s.phase = 'Paused';
  const deadline = job.spec?.activeDeadlineSeconds;
  if ((s.phase === 'Waiting' || s.phase === 'Unknown' || s.phase === 'Running') && deadline !== undefined && deadline !== null && now - timeOf(s.startTime)! >= deadline * 1000) {
    s.completionTime = at;
    s.phase = 'Failed';
    conditions = withCondition(conditions, 'JobFailed', 'DeadlineExceeded', `EphemeralJob ${job.metadata.namespace}/${job.metadata.name} was active longer than specified deadline`, at);
  }
  if (templateContainers(job).length === 0) {
    s.phase = 'Error';
    conditions = withCondition(conditions, 'JobError', 'Error', 'job spec invalid fields.', at);
  }
  s.conditions = conditions;
  return s;
}
