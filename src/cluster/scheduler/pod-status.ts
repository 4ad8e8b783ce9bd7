/**
 * What the scheduler writes on pods: the Binding of a placed pod, and on a pod it could not place
 * the PodScheduled=False condition with reason Unschedulable and the FailedScheduling message, as
 * a strategic-merge patch of the status subresource (conditions merge by type). Nothing is written
 * when the condition already says so.
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Pod } from '../../api/core/index.js';

/** POST pods/<name>/binding, as kube-scheduler's DefaultBinder does (the uid guards against a re-created pod). */
export async function postBinding(client: Client, pod: Pod, node: string): Promise<void> {
  const { namespace, name, uid } = pod.metadata;
  await client.createSubresource(Pods, namespace, name!, 'binding', {
    apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid },
    target: { apiVersion: 'v1', kind: 'Node', name: node },
  });
}

/** Writes the Unschedulable condition; undefined when it is already there. */
export function writeUnschedulable(client: Client, pod: Pod, message: string, nowMs: number): Promise<unknown> | undefined {
  const patch = unschedulablePatch(pod, message, nowMs);
  if (!patch) return undefined;
  return client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', patch, { subresource: 'status' });
}

export function unschedulablePatch(pod: Pod, message: string, nowMs: number): object | undefined {
  const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  const already = current?.status === 'False';
  if (already && current.reason === 'Unschedulable' && current.message === message) return undefined;
  return {
    status: {
      conditions: [{
        type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message,
        lastProbeTime: null,
        // The transition is from "not False" to False; a new message alone keeps the time.
        lastTransitionTime: already && current.lastTransitionTime ? current.lastTransitionTime : rfc3339(nowMs),
      }],
    },
  };
}
