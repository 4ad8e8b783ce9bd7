/**
 * The registered pod mutation and validation steps. A feature adds its step to its list (any
 * position: each chain sorts by its order); workloadspread, sidecarset, container launch priority,
 * PUB, PersistentPodState and enhanced liveness are still to come.
 */
import { launchPriorityStep } from './launch-priority.js';
import { probeMarkerStep } from './probe-marker.js';
import { readinessGateStep } from './readiness-gate.js';
import { sidecarSetStep } from './sidecarset.js';
import type { PodMutationStep } from './step.js';
import type { PodValidationStep } from './validation-step.js';

export const podMutationSteps: readonly PodMutationStep[] = [
  readinessGateStep,
  probeMarkerStep,
  sidecarSetStep,
  launchPriorityStep,
];

/** While empty, `vpod`/`vpodeviction` are not served and the configuration controller prunes them. */
export const podValidationSteps: readonly PodValidationStep[] = [];
