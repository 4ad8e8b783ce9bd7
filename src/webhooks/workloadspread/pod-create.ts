/**
 * Pod mutation step `workloadspread` (docs/design/workloadspread.md §4): a new pod of a workload
 * some WorkloadSpread targets is placed in a subset (node affinity, tolerations, patch, the
 * matched-workloadspread annotation) and, for bounded subsets, recorded in the subset's
 * creatingPods so the next pod sees the room taken. No subset with room: admitted unchanged.
 */
import { randomUUID } from 'node:crypto';
import type { Pod } from '../../api/core/index.js';
import type { Spread as WorkloadSpread } from '../../control/workloadspread/index.js';
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import {
  chooseAndRecord, chooseWithoutStatus, injectSubset, isActive, podVersion, targetTypeOf, workloadReplicas, type SubsetChoice,
} from '../../control/workloadspread/index.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodMutationStep } from '../pod/step.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { findSpreadOfPod, type SpreadMatch } from './pod-target.js';
import { statusWriterFor } from './status-writers.js';

import { WorkloadSpreadGate } from './gate.js';

async function choose(input: AdmissionInput, pod: Pod, match: SpreadMatch): Promise<SubsetChoice | undefined> {
  const direct = chooseWithoutStatus(match.ws, pod);
  if (direct) return direct.subset && { subset: direct.subset };
  const replicas = workloadReplicas(match.ws, match.type, match.target);
  const version = podVersion(pod);
  const now = rfc3339(Date.now());
  return statusWriterFor(input.client).update(match.ws, (copy) => {
    const { choice, changed } = chooseAndRecord(copy, pod, version, replicas, now, randomUUID);
    return { result: choice, ...(changed && { write: copy }) };
  });
}

async function placePod(pod: Pod, input: AdmissionInput): Promise<void> {
  if (input.request.dryRun || input.request.subResource || !isActive(pod)) return;
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  if (!owner || !targetTypeOf(owner)) return;
  const namespace = pod.metadata.namespace ?? input.request.namespace ?? '';
  const spreads = (await input.client.list<WorkloadSpread>(WorkloadSpreads, { namespace })).items
    .filter((ws) => !ws.metadata.deletionTimestamp && ws.spec?.targetRef);
  if (spreads.length === 0) return;
  const match = await findSpreadOfPod(input.client, pod, namespace, spreads);
  if (!match) return;
  const choice = await choose(input, pod, match);
  if (!choice) return;
  const placed = injectSubset(pod, choice.subset, { name: match.ws.metadata.name!, subset: choice.subset.name, ...(choice.generatedUid && { uid: choice.generatedUid }) });
  if (placed !== pod) {
    for (const key of Object.keys(pod)) delete (pod as unknown as Record<string, unknown>)[key];
    Object.assign(pod, placed);
  }
}

export const workloadSpreadPodCreateStep: PodMutationStep = {
  name: 'workloadspread',
  enabled: (gate) => gate(WorkloadSpreadGate),
  async mutate(pod, input) {
    try {
      await placePod(pod, input);
    } catch (err) {
      if (err instanceof AdmissionDenied) throw err;
      throw new AdmissionDenied(500, `workloadspread: ${(err as Error).message}`);
    }
  },
};
