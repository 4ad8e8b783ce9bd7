/**
 * CRI requests the kubelet builds from a pod: the sandbox config and each container's config with
 * the kubelet's labels and annotations (restart count, spec hash, grace period, ports, preStop), plus
 * the fake runtime's annotations carrying what the container does (behaviour/, §9-§10).
 */
import { createHash } from 'node:crypto';
import { FakeAnnotations } from '../../daemon/cri/fake-container.js';
import { KubeletAnnotations, KubeletLabels, type ContainerConfig, type KeyValue, type Labels, type PodSandboxConfig } from '../../daemon/cri/types.js';
import type { ContainerBehaviour } from './behaviour/container-behaviour.js';
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
  behaviour: ContainerBehaviour;
  attempt: number;
  /** The kubelet-wide time to exit after SIGTERM, when the behaviour sets none. */
  terminationDelayMs: number;
  /** The resolved environment (config/container-env.ts). */
  envs?: KeyValue[];
}

/** The fake runtime's script: exit code and run time (none: run until stopped), start and stop times. */
function fakeAnnotations(b: ContainerBehaviour, terminationDelayMs: number): Labels {
  const out: Labels = {};
  if (b.process.ends === 'exit') {
    out[FakeAnnotations.exitCode] = String(b.process.exitCode);
    out[FakeAnnotations.runMs] = String(b.process.afterMs);
  }
  if (b.startDelayMs !== undefined) out[FakeAnnotations.startDelayMs] = String(b.startDelayMs);
  const terminationMs = b.terminationMs ?? terminationDelayMs;
  if (Number.isFinite(terminationMs)) out[FakeAnnotations.terminationMs] = String(terminationMs);
  return out;
}

export function containerConfig({ pod, container, behaviour, attempt, terminationDelayMs, envs }: ContainerConfigInput): ContainerConfig {
  const m = pod.metadata;
  const annotations: Record<string, string> = {
    [KubeletAnnotations.restartCount]: String(attempt),
    [KubeletAnnotations.hash]: containerHash(container),
    [KubeletAnnotations.terminationGracePeriod]: String(pod.spec.terminationGracePeriodSeconds ?? 30),
    ...fakeAnnotations(behaviour, terminationDelayMs),
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
