/**
 * The registered pod mutation and validation steps. A feature adds its step to its list (any
 * position: each chain sorts by its order).
 */
import { pubMutationStep } from '../podunavailablebudget/pod-mutation.js';
import { pubValidationStep } from '../podunavailablebudget/pod-validation.js';
import { persistentPodStateStep } from '../persistentpodstate/pod-mutation.js';
import { launchPriorityStep } from './launch-priority.js';
import { probeMarkerStep } from './probe-marker.js';
import { readinessGateStep } from './readiness-gate.js';
import { sidecarSetStep } from './sidecarset.js';
import type { PodMutationStep } from './step.js';
import type { PodValidationStep } from './validation-step.js';
import { workloadSpreadPodCreateStep } from '../workloadspread/pod-create.js';
import { workloadSpreadPodDeleteStep } from '../workloadspread/pod-delete.js';

export const podMutationSteps: readonly PodMutationStep[] = [
  readinessGateStep,
  workloadSpreadPodCreateStep,
  pubMutationStep,
  persistentPodStateStep,
  probeMarkerStep,
  sidecarSetStep,
  launchPriorityStep,
];

/** While empty, `vpod`/`vpodeviction` are not served and the configuration controller prunes them. */
export const podValidationSteps: readonly PodValidationStep[] = [
  workloadSpreadPodDeleteStep,
  pubValidationStep,
];
