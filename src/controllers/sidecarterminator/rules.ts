/**
 * Which pods the job sidecar terminator acts on, and what their containers are
 * (docs/design/sidecarset.md §8.1): sidecars carry env KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT=true
 * (any case) or KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE; every other container is a main
 * container. A pod is due once every main container has terminated (OnFailure: with exit 0).
 */
import type { Container, ContainerStatus, Pod } from '../../api/core/index.js';

export const TerminateEnv = 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT';
export const TerminateWithImageEnv = 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE';
export const IgnoreExitCodeEnv = 'KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE';
export const SidecarTerminatedCondition = 'SidecarTerminated';
export const VirtualKubeletLabel = { key: 'type', value: 'virtual-kubelet' } as const;

const envValue = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;
export const withImage = (c: Container): string | undefined => envValue(c, TerminateWithImageEnv) || undefined;
const terminates = (c: Container): boolean => envValue(c, TerminateEnv)?.toLowerCase() === 'true';
export const isSidecar = (c: Container): boolean => terminates(c) || withImage(c) !== undefined;
export const ignoresExitCode = (c: Container): boolean => terminates(c) && envValue(c, IgnoreExitCodeEnv)?.toLowerCase() === 'true';

export function statusOf(pod: Pod, name: string): ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((s) => s.name === name);
}

const allStatuses = (pod: Pod): boolean => (pod.status?.containerStatuses?.length ?? 0) === pod.spec.containers.length;
export const isTerminated = (pod: Pod, c: Container): boolean => statusOf(pod, c.name)?.state?.terminated !== undefined;

export const sidecarsOf = (pod: Pod): Container[] => pod.spec.containers.filter(isSidecar);
export const mainsOf = (pod: Pod): Container[] => pod.spec.containers.filter((c) => !isSidecar(c));

/** Every main container exited 0. */
export const mainsSucceeded = (pod: Pod): boolean => mainsOf(pod).every((c) => statusOf(pod, c.name)?.state?.terminated?.exitCode === 0);

export function isDue(pod: Pod): boolean {
  if (pod.metadata.deletionTimestamp || !pod.status?.phase || pod.status.phase === 'Pending') return false;
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always' || !allStatuses(pod)) return false;
  const sidecars = sidecarsOf(pod);
  if (sidecars.length === 0 || sidecars.every((c) => isTerminated(pod, c))) return false;
  const mains = mainsOf(pod);
  if (!mains.every((c) => isTerminated(pod, c))) return false;
  return policy === 'Never' || mainsSucceeded(pod);
}
