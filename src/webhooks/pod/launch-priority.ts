/**
 * Pod mutation step `container-launch-priority` (docs/design/sidecarset.md §7.1), after sidecar
 * injection so injected containers take part: annotation `apps.kruise.io/container-launch-priority:
 * Ordered` ranks containers by position (first highest), else env KRUISE_CONTAINER_PRIORITY does
 * (missing = 0; not an integer refuses the pod; all equal = no ordering). Every container then
 * gets the barrier env; a generateName pod is named here because the ConfigMap name needs it.
 */
import { randomInt } from 'node:crypto';
import { ContainerLaunchPriorityAnnotation, ContainerLaunchPriorityOrdered, ContainerPriorityEnv } from '../../api/kruise/workloads/labels.js';
import { barrierConfigMapName, barrierKey, ContainerBarrierEnv } from '../../control/launchpriority/index.js';
import { AdmissionDenied } from '../kind-webhook.js';
import type { PodMutationStep } from './step.js';
import type { Pod } from '../../api/core/index.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** apiserver's SimpleNameGenerator: generateName + 5 random characters. */
const generatedName = (prefix: string): string =>
  prefix.slice(0, 58) + Array.from({ length: 5 }, () => nameAlphabet[randomInt(nameAlphabet.length)]).join('');

function envPriorities(pod: Pod): number[] | undefined {
  const priorities = pod.spec.containers.map((c) => {
    const raw = c.env?.find((e) => e.name === ContainerPriorityEnv)?.value;
    if (raw === undefined) return 0;
    if (!/^[+-]?\d+$/.test(raw)) throw new AdmissionDenied(400, `strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid syntax`);
    return Number(raw);
  });
  return priorities.some((p) => p !== priorities[0]) ? priorities : undefined;
}

export const launchPriorityStep: PodMutationStep = {
  name: 'container-launch-priority',
  enabled: () => true,
  mutate(pod) {
    if (pod.spec.containers.length <= 1) return;
    const ordered = pod.metadata.annotations?.[ContainerLaunchPriorityAnnotation] === ContainerLaunchPriorityOrdered;
    const priorities = ordered ? pod.spec.containers.map((_, i) => -i) : envPriorities(pod);
    if (!priorities) return;
    if (!pod.metadata.name && pod.metadata.generateName) pod.metadata.name = generatedName(pod.metadata.generateName);
    pod.spec.containers.forEach((c, i) => {
      c.env = [...c.env ?? [], {
        name: ContainerBarrierEnv, valueFrom: { configMapKeyRef: { name: barrierConfigMapName(pod.metadata.name!), key: barrierKey(priorities[i]!) } },
      }];
    });
  },
};
