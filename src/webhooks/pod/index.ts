/** The pod mutating webhook (`mpod.kb.io`, `/mutate-pod`): the ordered chain of pod mutation steps. */
import type { KindWebhooks } from '../kind-webhook.js';
import { createPodMutator } from './mutator.js';
import { podMutationSteps } from './steps.js';

export { createPodMutator, orderSteps, type PodMutator } from './mutator.js';
export { injectReadinessGate, isOwnedByKruise, KruisePodReadinessGate, readinessGateStep } from './readiness-gate.js';
export { podMutationOrder, type PodMutationStep, type PodMutationStepName } from './step.js';
export { podMutationSteps } from './steps.js';

export const podWebhooks: KindWebhooks = {
  default: createPodMutator(podMutationSteps),
};
