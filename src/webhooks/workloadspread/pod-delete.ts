/**
 * Pod validation step `workloadspread` (docs/design/workloadspread.md §4): a deletion or eviction
 * of a pod placed by a WorkloadSpread in a bounded subset is recorded in the subset's
 * deletingPods at once (missingReplicas + 1), so the next pod created may take the room before
 * the controller sees the pod go. Never refuses; only failing to record answers 400.
 */
import type { Pod } from '../../api/core/index.js';
import type { Spread as WorkloadSpread } from '../../control/workloadspread/index.js';
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { injectedSpreadOf, isActive, isStatefulSetTarget, podVersion } from '../../control/workloadspread/index.js';
import { isNotFound } from '../../machinery/errors.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodValidationStep } from '../pod/validation-step.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { WorkloadSpreadGate } from './gate.js';
import { statusWriterFor } from './status-writers.js';

async function getOrUndefined<T extends Pod | WorkloadSpread>(client: Client, type: typeof Pods, namespace: string, name: string): Promise<T | undefined> {
  try {
    return await client.get<T>(type, namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function leavingPod(input: AdmissionInput): Promise<Pod | undefined> {
  const { operation, subResource, namespace, name } = input.request;
  if (operation === 'DELETE' && !subResource) return input.oldObject as Pod | undefined;
  if (operation === 'CREATE' && subResource === 'eviction' && name) return getOrUndefined<Pod>(input.client, Pods, namespace ?? '', name);
  return undefined;
}

/** Records the pod in deletingPods of its subset; returns whether the status changed. */
export function recordDeleting(copy: WorkloadSpread, pod: Pod, subsetName: string, now: string): boolean {
  const statuses = copy.status?.versionedSubsetStatuses?.[podVersion(pod)];
  const st = statuses?.find((s) => s.name === subsetName);
  const name = pod.metadata.name!;
  if (!st || st.missingReplicas < 0) return false;
  if (statuses!.some((s) => s.creatingPods?.[name] || s.deletingPods?.[name])) return false;
  st.deletingPods = { ...st.deletingPods, [name]: now };
  st.missingReplicas++;
  return true;
}

async function recordLeaving(input: AdmissionInput): Promise<void> {
  if (input.request.dryRun) return;
  const pod = await leavingPod(input);
  const injected = pod && injectedSpreadOf(pod);
  if (!pod || !injected || !isActive(pod) || !pod.metadata.ownerReferences?.some((r) => r.controller === true)) return;
  const ws = await getOrUndefined<WorkloadSpread>(input.client, WorkloadSpreads, pod.metadata.namespace ?? input.request.namespace ?? '', injected.name);
  if (!ws || ws.metadata.deletionTimestamp || isStatefulSetTarget(ws)) return;
  const now = rfc3339(Date.now());
  await statusWriterFor(input.client).update(ws, (copy) => {
    const changed = recordDeleting(copy, pod, injected.subset, now);
    return { result: undefined, ...(changed && { write: copy }) };
  });
}

export const workloadSpreadPodDeleteStep: PodValidationStep = {
  name: 'workloadspread',
  enabled: (gate) => gate(WorkloadSpreadGate),
  async validate(input) {
    try {
      await recordLeaving(input);
    } catch (err) {
      throw new AdmissionDenied(400, `workloadspread: ${(err as Error).message}`);
    }
  },
};
