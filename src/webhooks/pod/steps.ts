/**
 * The registered pod mutation steps. A feature adds its step here (any position: the chain sorts
 * by `podMutationOrder`); workloadspread, sidecarset, container launch priority, PUB,
 * PersistentPodState, enhanced liveness and probe marker are still to come.
 */
import { readinessGateStep } from './readiness-gate.js';
import type { PodMutationStep } from './step.js';

export const podMutationSteps: readonly PodMutationStep[] = [
  readinessGateStep,
];
