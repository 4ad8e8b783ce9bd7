/**
 * CRI requests the kubelet builds from a pod: the sandbox config and each container's config with
 * the kubelet's labels and annotations (restart count, spec hash, grace period, ports, preStop), plus
 * the fake runtime's script annotations.
 */
import { createHash } from 'node:crypto';
import { KubeletAnnotations, KubeletLabels, type ContainerConfig, type KeyValue, type PodSandboxConfig } from '../../daemon/cri/types.js';
import { scriptAnnotations, type ContainerRole } from './simulate-annotations.js';
import type { Container, Pod } from '../../api/core/index.js';

export function sandboxConfig(pod: Pod, attempt = 0): PodSandboxConfig {
  const m = pod.metadata;
  return {
    metadata: { name: m.name!, namespace: m.namespace ?? 'default', uid: m.uid!, attempt },
    hostname: pod.spec.hostname ?? m.name,
    logDirectory: `/var/log/pods/${m.namespace}_${m.name}_${m.uid}`,
    labels: { ...m.labels, [KubeletLabels.podName]: m.name!, [KubeletLabels.podNamespace]: m.namespace ?? 'default', [KubeletLabels.podUid]: m.uid! },
    annotations: { ...m.annotations },
  };
}

/** The hash kubelet keeps in `io.kubernetes.container.hash`: of the whole container spec. */
export function containerHash(container: Container): string {
  return createHash('sha256').update(JSON.stringify(container)).digest('hex').slice(0, 8);
}

export interface ContainerConfigInput {
  pod: Pod;
  container: Container;
  role: ContainerRole;
  attempt: number;
  terminationDelayMs: number;
  /** The resolved environment (config/container-env.ts). */
  envs?: KeyValue[];
}

export function containerConfig({ pod, container, role, attempt, terminationDelayMs, envs }: ContainerConfigInput): ContainerConfig {
  const m = pod.metadata;
  const annotations: Record<string, string> = {
    [KubeletAnnotations.restartCount]: String(attempt),
    [KubeletAnnotations.hash]: containerHash(container),
    [KubeletAnnotations.terminationGracePeriod]: String(pod.spec.terminationGracePeriodSeconds ?? 30),
    ...scriptAnnotations(pod, container, role, terminationDelayMs),
  };
  if (container.ports?.length) annotations[KubeletAnnotations.ports] = JSON.stringify(container.ports);
  if (container.lifecycle?.preStop) annotations[KubeletAnnotations.preStopHandler] = JSON.stringify(container.lifecycle.preStop);
  return {
    metadata: { name: container.name, attempt },
    image: { image: container.image ?? '' },
    command: container.command as string[] | undefined,
    args: container.args as string[] | undefined,
    envs,
    labels: {
      [KubeletLabels.podName]: m.name!, [KubeletLabels.podNamespace]: m.namespace ?? 'default',
      [KubeletLabels.podUid]: m.uid!, [KubeletLabels.containerName]: container.name,
    },
    annotations,
  };
}
