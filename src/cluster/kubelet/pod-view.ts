/**
 * What one kubelet knows about one pod at an instant: the API object plus, per container, the
 * runtime's latest and previous attempts, operations in flight and probe results. The pure
 * functions deciding actions and status all read this view.
 */
import type { ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { roleOf, type ContainerRole } from './simulate-annotations.js';
import type { Container, Pod } from '../../api/core/index.js';

export interface ContainerInfo {
  /** Highest attempt the runtime has for this container name. */
  latest?: CriContainerStatus;
  /** The attempt before it (for `lastState`). */
  previous?: CriContainerStatus;
  /** A pull/create/start (or stop-then-start) is in flight. */
  busy: boolean;
  /** Last pull failure; `retryAt` is when the back-off ends; `failures` in a row. */
  pullError?: { message: string; retryAt: number; failures?: number };
  /** Why the container cannot be created from its spec and annotations (CreateContainerConfigError). */
  configError?: string;
  /** Readiness probe result for the latest attempt. */
  ready: boolean;
}

export interface PodView {
  pod: Pod;
  now: number;
  hostIP: string;
  sandbox?: { id: string; ip?: string; ready: boolean };
  sandboxBusy: boolean;
  containers: Map<string, ContainerInfo>;
  /** `<runtimeName>://` prefix of container IDs. */
  runtimeName: string;
  crashBackoff: { initialMs: number; maxMs: number };
}

export interface ContainerEntry {
  spec: Container;
  role: ContainerRole;
  info: ContainerInfo;
}

const emptyInfo = (): ContainerInfo => ({ busy: false, ready: false });

export function initEntries(view: PodView): ContainerEntry[] {
  return (view.pod.spec.initContainers ?? []).map((spec) => ({ spec, role: roleOf(spec, true), info: view.containers.get(spec.name) ?? emptyInfo() }));
}

export function mainEntries(view: PodView): ContainerEntry[] {
  return view.pod.spec.containers.map((spec) => ({ spec, role: 'main' as const, info: view.containers.get(spec.name) ?? emptyInfo() }));
}

export const isRunning = (c?: CriContainerStatus): boolean => c?.state === 'CONTAINER_RUNNING';
export const isExited = (c?: CriContainerStatus): boolean => c?.state === 'CONTAINER_EXITED';
export const exitedOk = (c?: CriContainerStatus): boolean => isExited(c) && c!.exitCode === 0;

/** Whether the pod's restartPolicy restarts a container that exited with `exitCode` (sidecars always). */
export function shouldRestart(pod: Pod, role: ContainerRole, exitCode: number): boolean {
  if (role === 'sidecar') return true;
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (role === 'init') return exitCode !== 0 && policy !== 'Never';
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

/** When an exited container may be restarted: at once the first time, then 10 s doubling to 5 min. */
export function restartAllowedAt(view: PodView, latest: CriContainerStatus): number {
  const restarts = latest.metadata.attempt;
  if (restarts === 0) return 0;
  const { initialMs, maxMs } = view.crashBackoff;
  const delay = Math.min(initialMs * 2 ** (restarts - 1), maxMs);
  return latest.finishedAt / 1e6 + delay;
}

/** Regular init containers done and sidecars started: main containers may start. */
export function initialized(view: PodView): boolean {
  return initEntries(view).every(({ role, info }) => (role === 'sidecar' ? isRunning(info.latest) : exitedOk(info.latest)));
}

/** A regular init container failed for good (restartPolicy Never). */
export function initFailed(view: PodView): boolean {
  return initEntries(view).some(({ role, info }) => role === 'init' && isExited(info.latest) && !exitedOk(info.latest) && !shouldRestart(view.pod, role, info.latest!.exitCode));
}

/** Every regular container has exited and none will be restarted. */
export function mainDone(view: PodView): boolean {
  return mainEntries(view).every(({ info }) => isExited(info.latest) && !shouldRestart(view.pod, 'main', info.latest!.exitCode));
}
