/**
 * Creating and deleting a BroadcastJob's pods (docs/design/jobs.md §3): one pod per node from the
 * template with the job's labels, pinned by node affinity `metadata.name In [node]` (so the
 * scheduler binds it) or by spec.nodeName; creates in slow-start batches, each under the scale
 * expectations; deletes with the pod's UID as precondition.
 */
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';
import { BroadcastJobControllerUidLabel, BroadcastJobNameLabel } from '../../api/kruise/ops/index.js';
import type { BroadcastJob } from './types.js';
import type { Client } from '../../client/client.js';
import { newControllerRef } from '../../control/ownership/index.js';
import { createGeneratedPodExpected, deletePodExpected, slowStartBatch } from '../../control/podcontrol/index.js';
import { podFromTemplate } from '../../control/podcontrol/pod-template.js';
import type { KObject } from '../../api/meta.js';
import { pinToNode } from '../../machinery/scheduling/index.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ScaleExpectations } from '../../runtime/expectations.js';

export const BroadcastJobApiVersion = 'apps.kruise.io/v1beta1';

export interface PodWriteContext {
  client: Client;
  expectations: ScaleExpectations;
  events: EventRecorder;
  pods: { get(namespace: string | undefined, name: string): KObject | undefined };
  /** The job's expectation key. */
  key: string;
  /** Pin by node affinity (upstream --assign-bcj-pods-by-scheduler, default true) rather than spec.nodeName. */
  assignByScheduler: boolean;
}

export function jobPodLabels(job: BroadcastJob): Record<string, string> {
  return { [BroadcastJobNameLabel]: job.metadata.name!, [BroadcastJobControllerUidLabel]: job.metadata.uid! };
}

export function newJobPod(job: BroadcastJob, nodeName: string, assignByScheduler: boolean): Pod {
  const template = job.spec?.template as PodTemplateSpec | undefined;
  const pod = podFromTemplate({ namespace: job.metadata.namespace!, template, ownerRef: newControllerRef(job, BroadcastJobApiVersion, 'BroadcastJob') });
  pod.metadata.labels = { ...pod.metadata.labels, ...jobPodLabels(job) };
  if (assignByScheduler) pod.spec.affinity = pinToNode(pod.spec.affinity, nodeName);
  else pod.spec.nodeName = nodeName;
  return pod;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Creates pods on `nodes` in batches 1, 2, 4, ... stopping after a batch with a failure; returns how many were created. */
export async function createJobPods(c: PodWriteContext, job: BroadcastJob, nodes: readonly string[]): Promise<{ created: number; error?: unknown }> {
  const { successes, error } = await slowStartBatch(nodes.length, 1, async (i) => {
    const failed = (e: unknown) => c.events.event(job, 'Warning', 'FailedCreate', `Error creating: ${messageOf(e)}`);
    const created = await createGeneratedPodExpected(c, newJobPod(job, nodes[i]!, c.assignByScheduler), failed);
    c.events.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  });
  return { created: successes, error };
}

/** Deletes `pods` in parallel; returns those actually deleted and the first error. */
export async function deleteJobPods(c: PodWriteContext, job: BroadcastJob, pods: readonly Pod[]): Promise<{ deleted: Pod[]; error?: unknown }> {
  const deleted: Pod[] = [];
  let error: unknown;
  await Promise.all(pods.map(async (pod) => {
    try {
      const failed = (e: unknown) => c.events.event(job, 'Warning', 'FailedDelete', `Error deleting: ${messageOf(e)}`);
      if (await deletePodExpected(c, pod, failed)) {
        deleted.push(pod);
        c.events.event(job, 'Normal', 'SuccessfulDelete', `Delete pod: ${pod.metadata.name}`);
      }
    } catch (e) {
      error ??= e;
    }
  }));
  return { deleted, error };
}
