/**
 * One step of the pod validating webhook (`vpod.kb.io` for UPDATE/DELETE, `vpodeviction.kb.io` for
 * CREATE of `pods/eviction`, one handler at `/validate-pod`; docs/design/webhooks.md §11). Steps run
 * in `podValidationOrder`; the first to throw `AdmissionDenied` decides, the rest do not run.
 */
import type { AdmissionInput } from '../kind-webhook.js';

export interface PodValidationStep {
  /** One of `podValidationOrder`. */
  name: PodValidationStepName;
  /** Whether the step runs at all in this manager (its feature gate). */
  enabled(gate: (name: string) => boolean): boolean;
  /** Throws `AdmissionDenied` to refuse the update, delete or eviction. */
  validate(input: AdmissionInput): void | Promise<void>;
}

/** Upstream's order: WorkloadSpread records a deleting pod before the PUB may refuse it. */
export const podValidationOrder = ['workloadspread', 'pub'] as const;

export type PodValidationStepName = (typeof podValidationOrder)[number];
