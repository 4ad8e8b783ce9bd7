/**
 * One step of the pod mutating webhook (`mpod.kb.io`, docs/design/webhooks.md §11). Steps run in the
 * fixed order of `podMutationOrder` on one copy of the pod; each feature is its own step, so a new
 * feature adds a step without touching the others.
 */
import type { Pod } from '../../api/core/index.js';
import type { AdmissionInput } from '../kind-webhook.js';


export interface PodMutationStep {
  /** One of `podMutationOrder`. */
  name: PodMutationStepName;
  /** Whether the step runs at all in this manager (its feature gate). */
  enabled(gate: (name: string) => boolean): boolean;
  /** Changes `pod` in place; throwing denies the pod's creation. */
  mutate(pod: Pod, input: AdmissionInput): void | Promise<void>;
}

/** Upstream's order: SidecarSet must precede container launch priority, PUB precedes PersistentPodState. */
export const podMutationOrder = [
  'readiness-gate', 'workloadspread', 'sidecarset', 'container-launch-priority',
  'pub', 'persistentpodstate', 'enhanced-liveness', 'probe-marker',
] as const;

export type PodMutationStepName = (typeof podMutationOrder)[number];
