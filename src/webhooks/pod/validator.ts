/**
 * The pod validating chain: each enabled step in `podValidationOrder`; a step refuses by throwing.
 * Field errors never come from here, so the validator always returns none.
 */
import type { FieldError } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { podValidationOrder, type PodValidationStep } from './validation-step.js';

export type PodValidator = (input: AdmissionInput) => Promise<FieldError[]>;

export function createPodValidator(steps: readonly PodValidationStep[]): PodValidator {
  const names = steps.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new Error(`pod validation steps repeated: ${names.join(', ')}`);
  const ordered = [...steps].sort((a, b) => podValidationOrder.indexOf(a.name) - podValidationOrder.indexOf(b.name));
  return async (input) => {
    for (const step of ordered) {
      if (step.enabled(input.gate)) await step.validate(input);
    }
    return [];
  };
}
