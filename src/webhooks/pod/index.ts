/** The pod webhooks: mutating `mpod.kb.io` (`/mutate-pod`) and validating `/validate-pod`, each an ordered chain of steps. */
import type { KindWebhooks } from '../kind-webhook.js';
import { createPodMutator } from './mutator.js';
import { podMutationSteps, podValidationSteps } from './steps.js';
import { createPodValidator } from './validator.js';

export { createPodMutator, orderSteps, type PodMutator } from './mutator.js';
export { injectReadinessGate, isOwnedByKruise, KruisePodReadinessGate, readinessGateStep } from './readiness-gate.js';
export { podMutationOrder, type PodMutationStep, type PodMutationStepName } from './step.js';
export { podValidationOrder, type PodValidationStep, type PodValidationStepName } from './validation-step.js';
export { podMutationSteps, podValidationSteps } from './steps.js';
export { createPodValidator, type PodValidator } from './validator.js';

export const podWebhooks: KindWebhooks = {
  default: createPodMutator(podMutationSteps),
  ...(podValidationSteps.length > 0 && { validate: createPodValidator(podValidationSteps) }),
};
