/**
 * The pod mutating chain: only CREATE is mutated. The pod is copied once, its namespace filled
 * from the request when empty, and each enabled step runs on the copy in `podMutationOrder`.
 */
import type { KObject } from '../../api/meta.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { podMutationOrder, type PodMutationStep } from './step.js';
import type { Pod } from '../../api/core/index.js';

/** Sorts `steps` into the canonical order; rejects unknown or repeated names. */
export function orderSteps(steps: readonly PodMutationStep[]): PodMutationStep[] {
  const seen = new Set<string>();
  for (const step of steps) {
    if (!podMutationOrder.includes(step.name)) throw new Error(`unknown pod mutation step ${JSON.stringify(step.name)}`);
    if (seen.has(step.name)) throw new Error(`pod mutation step ${step.name} registered twice`);
    seen.add(step.name);
  }
  return [...steps].sort((a, b) => podMutationOrder.indexOf(a.name) - podMutationOrder.indexOf(b.name));
}

export type PodMutator = (input: AdmissionInput) => Promise<KObject>;

export function createPodMutator(steps: readonly PodMutationStep[]): PodMutator {
  const ordered = orderSteps(steps);
  return async (input) => {
    const original = input.object;
    if (!original) throw new AdmissionDenied(400, 'pod admission request carries no object');
    if (input.request.operation !== 'CREATE' || input.request.subResource) return original;
    const pod = structuredClone(original) as Pod;
    if (!pod.metadata.namespace && input.request.namespace) pod.metadata.namespace = input.request.namespace;
    for (const step of ordered) {
      if (step.enabled(input.gate)) await step.mutate(pod, input);
    }
    return pod;
  };
}
