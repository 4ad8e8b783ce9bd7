/**
 * Container launch priority (docs/design/sidecarset.md §7): each container of a pod reads env
 * KRUISE_CONTAINER_BARRIER from key `p_<priority>` of ConfigMap `<pod>-barrier`; the kubelet
 * holds a container in CreateContainerConfigError while its key is missing, and the controller
 * adds the keys highest priority first, each once the containers above it are ready.
 */
import type { Container, Pod } from '../../api/core/index.js';

export const ContainerBarrierEnv = 'KRUISE_CONTAINER_BARRIER';
export const LaunchPriorityCompletedAnnotation = 'apps.kruise.io/container-launch-priority-completed';

export const barrierConfigMapName = (pod: string): string => `${pod}-barrier`;
export const barrierKey = (priority: number): string => `p_${priority}`;

/** The barrier key a container waits for, if it has a barrier env. */
export function containerBarrierKey(c: Container): string | undefined {
  return c.env?.find((e) => e.name === ContainerBarrierEnv)?.valueFrom?.configMapKeyRef?.key;
}

export const priorityOfKey = (key: string): number => Number(key.slice(2));

/** Ascending priorities of the containers that are not ready and wait on a barrier. */
export function pendingPriorities(pod: Pod): number[] {
  const ready = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.ready).map((s) => s.name));
  const out = new Set<number>();
  for (const c of pod.spec.containers) {
    const key = containerBarrierKey(c);
    if (key && !ready.has(c.name)) out.add(priorityOfKey(key));
  }
  return [...out].sort((a, b) => a - b);
}

export const hasBarrier = (pod: Pod): boolean => pod.spec.containers.some((c) => containerBarrierKey(c) !== undefined);
