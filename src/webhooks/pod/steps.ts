/**
 * The registered pod mutation steps. A feature adds its step here (any position: the chain sorts
 * by `podMutationOrder`); workloadspread, sidecarset, container launch priority, PUB,
 * PersistentPodState and enhanced liveness are still to come.
 */
import { probeMarkerStep } from './probe-marker.js';
import { readinessGateStep } from './readiness-gate.js';
import type { PodMutationStep } from './step.js';

export const podMutationSteps: readonly PodMutationStep[] = [
  readinessGateStep,
  probeMarkerStep,
];
