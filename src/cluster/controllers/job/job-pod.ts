/**
 * A Job's pod from its template: owner reference, the job-tracking finalizer, and for Indexed Jobs
 * the completion index (annotation, label, `<job>-<index>` hostname, JOB_COMPLETION_INDEX env).
 * The name is chosen here rather than by the server's generateName, so expectations can name it
 * before it exists; it has the same shape (`<job>-[<index>-]<5 random characters>`).
 */
import type { Container, Pod, Job } from '../../../api/core/index.js';
import { randomInt } from 'node:crypto';
import { newControllerRef } from '../../../control/ownership/index.js';
import { podFromTemplate } from '../../../control/podcontrol/pod-template.js';
import { completionIndexAnnotation, completionIndexLabel, jobTrackingFinalizer } from './types.js';
import { byCreation } from '../../../machinery/order.js';

const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
/** Upstream's generated names keep the prefix to 58 characters (63 minus the suffix). */
const maxPrefixLength = 58;

export function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += suffixAlphabet[randomInt(suffixAlphabet.length)];
  return s;
}

export function newJobPod(job: Job, index?: number): Pod {
  const name = job.metadata.name!;
  const generateName = (index === undefined ? `${name}-` : `${name}-${index}-`).slice(0, maxPrefixLength);
  const pod = podFromTemplate({
    namespace: job.metadata.namespace!, template: job.spec?.template, ownerRef: newControllerRef(job, 'batch/v1', 'Job'), name: generateName + randomSuffix(),
  });
  const meta = pod.metadata;
  meta.generateName = generateName;
  meta.finalizers = [...(meta.finalizers ?? []).filter((f) => f !== jobTrackingFinalizer), jobTrackingFinalizer];
  if (index === undefined) return pod;
  meta.labels = { ...meta.labels, [completionIndexLabel]: String(index) };
  meta.annotations = { ...meta.annotations, [completionIndexAnnotation]: String(index) };
  const spec = pod.spec;
  spec.hostname = `${name}-${index}`;
  addIndexEnv(spec.containers);
  addIndexEnv(spec.initContainers);
  pod.spec = spec;
  return pod;
}

/** JOB_COMPLETION_INDEX from the downward API, unless the container already defines it. */
function addIndexEnv(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    if (c.env?.some((e) => e.name === 'JOB_COMPLETION_INDEX')) continue;
    c.env = [...(c.env ?? []), {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${completionIndexAnnotation}']` } },
    }];
  }
}

/** The Job a pod belongs to: its controller reference, else (orphaned) its job-name label. */
export function jobNameOf(pod: Pod): string | undefined {
  const ref = pod.metadata.ownerReferences?.find((r) => r.controller);
  if (ref) return ref.kind === 'Job' ? ref.name : undefined;
  return pod.metadata.labels?.['batch.kubernetes.io/job-name'];
}

export function hasTrackingFinalizer(pod: Pod): boolean {
  return pod.metadata.finalizers?.includes(jobTrackingFinalizer) ?? false;
}

/**
 * Succeeded, or Failed, or deleted while unfinished (it will not succeed now). With podReplacementPolicy
 * Failed, a deleted pod on a node stays terminating until its kubelet reports it Failed.
 */
export function finishedAs(pod: Pod, job: Job): 'succeeded' | 'failed' | undefined {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') return 'succeeded';
  if (phase === 'Failed') return 'failed';
  if (!pod.metadata.deletionTimestamp || !hasTrackingFinalizer(pod)) return undefined;
  if (job.spec?.podReplacementPolicy === 'Failed' && pod.spec?.nodeName) return undefined;
  return 'failed';
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** Pods cheapest to lose first: unscheduled, pending, not ready, then the most recently created. */
export function byDeletionCost(pods: Pod[]): Pod[] {
  const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return [...pods].sort((a, b) =>
    Number(Boolean(a.spec?.nodeName)) - Number(Boolean(b.spec?.nodeName))
    || (phaseRank[a.status?.phase ?? 'Pending'] ?? 0) - (phaseRank[b.status?.phase ?? 'Pending'] ?? 0)
    || Number(ready(a)) - Number(ready(b))
    || byCreation(b, a));
}
