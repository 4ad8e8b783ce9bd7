/**
 * First pod mutation step: the `KruisePodReady` readiness gate (docs/design/webhooks.md §11), so Kruise can
 * hold a pod not-ready (lifecycle hooks, in-place updates). Injected into pods whose controller is
 * an apps.kruise.io workload; gate KruisePodReadinessGate extends it to every pod, as upstream does.
 * The pod-readiness controller sets the matching condition, or such pods never become Ready.
 */
import type { OwnerReference } from '../../api/meta.js';
import { KruisePodReadyCondition } from '../../api/kruise/workloads/labels.js';
import type { PodMutationStep } from './step.js';
import type { Pod } from '../../api/core/index.js';

export const KruisePodReadinessGate = 'KruisePodReadinessGate';

function controllerOf(pod: Pod): OwnerReference | undefined {
  return pod.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

export function isOwnedByKruise(pod: Pod): boolean {
  const apiVersion = controllerOf(pod)?.apiVersion;
  if (!apiVersion) return false;
  const slash = apiVersion.indexOf('/');
  return slash >= 0 && apiVersion.slice(0, slash) === 'apps.kruise.io';
}

/** Adds the gate unless present; returns whether the pod changed. */
export function injectReadinessGate(pod: Pod, conditionType: string): boolean {
  const spec = (pod.spec ??= { containers: [] });
  const gates = (spec.readinessGates ??= []);
  if (gates.some((g) => g.conditionType === conditionType)) return false;
  gates.push({ conditionType });
  return true;
}

export const readinessGateStep: PodMutationStep = {
  name: 'readiness-gate',
  enabled: () => true,
  mutate(pod, input) {
    if (!isOwnedByKruise(pod) && !input.gate(KruisePodReadinessGate)) return;
    injectReadinessGate(pod, KruisePodReadyCondition);
  },
};
