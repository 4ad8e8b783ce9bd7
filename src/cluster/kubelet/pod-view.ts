/**
 * What one kubelet knows about one pod at an instant: the API object plus, per container, the
 * runtime's latest and previous attempts, operations in flight and probe results. The pure
 * functions deciding actions and status all read this view.
 */
import type { ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { roleOf, type ContainerRole } from './simulate-annotations.js';
import type { Container, Pod } from '../../api/core/index.js';

export type PostStartState = { state: 'running' } | { state: 'done'; at: number } | { state: 'failed'; message: string };

export interface ContainerInfo {
  /** Highest attempt the runtime has for this container name. */
  latest?: CriContainerStatus;
  /** The attempt before it (for `lastState`). */
  previous?: CriContainerStatus;
  /** A pull/create/start (with its postStart hook) is in flight. */
  busy: boolean;
  /** Last pull failure; `retryAt` is when the back-off ends; `failures` in a row. */
  pullError?: { message: string; retryAt: number; failures?: number };
  /** The environment could not be built (CreateContainerConfigError); retried at `retryAt` or on a change. */
  configError?: { message: string; retryAt: number };
  /** The latest attempt's postStart hook, if it has one. */
  postStart?: PostStartState;
  /** The latest attempt was killed to be started again, whatever the restartPolicy. */
  restartRequested?: boolean;
  /**
   * Killed because its spec changed, and its next attempt not started yet: its status stays as last
   * reported until then (docs/design/simulated-nodes.md §23).
   */
  replacing?: boolean;
  /** Running, postStart done and the startup probe (if any) succeeded. */
  started: boolean;
  /** Readiness probe result for the latest attempt. */
  ready: boolean;
  /** The liveness or startup probe of the latest attempt failed past its threshold. */
  probeFailure?: 'liveness' | 'startup';
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

/** How the kubelet treats a container: a regular init container, a native sidecar, a regular or an ephemeral one. */
export type EntryRole = ContainerRole | 'ephemeral';

export interface ContainerEntry {
  spec: Container;
  role: EntryRole;
  info: ContainerInfo;
}

const emptyInfo = (): ContainerInfo => ({ busy: false, ready: false, started: false });

export function initEntries(view: PodView): ContainerEntry[] {
  return (view.pod.spec.initContainers ?? []).map((spec) => ({ spec, role: roleOf(spec, true), info: view.containers.get(spec.name) ?? emptyInfo() }));
}

export function mainEntries(view: PodView): ContainerEntry[] {
  return view.pod.spec.containers.map((spec) => ({ spec, role: 'main' as const, info: view.containers.get(spec.name) ?? emptyInfo() }));
}

/** Ephemeral containers (`kubectl debug`), which the kubelet starts once and never restarts. */
export function ephemeralEntries(view: PodView): ContainerEntry[] {
  return (view.pod.spec.ephemeralContainers ?? []).map((spec) => ({ spec: spec as Container, role: 'ephemeral' as const, info: view.containers.get(spec.name) ?? emptyInfo() }));
}

/** A CRI timestamp in ms; rounded, as nanoseconds since the epoch in a double lose the last digits. */
export const nsToMs = (ns: number): number => Math.round(ns / 1e6);

export const isRunning = (c?: CriContainerStatus): boolean => c?.state === 'CONTAINER_RUNNING';
/** Running and past its postStart hook: what the API shows as `running`. */
export const runsPastPostStart = (info: Pick<ContainerInfo, 'latest' | 'postStart'>): boolean => isRunning(info.latest) && (info.postStart === undefined || info.postStart.state === 'done');
export const isExited = (c?: CriContainerStatus): boolean => c?.state === 'CONTAINER_EXITED';
export const exitedOk = (c?: CriContainerStatus): boolean => isExited(c) && c!.exitCode === 0;

/** Whether the pod's restartPolicy restarts a container that exited with `exitCode` (sidecars always, ephemeral never). */
export function shouldRestart(pod: Pod, role: EntryRole, exitCode: number): boolean {
  if (role === 'sidecar') return true;
  if (role === 'ephemeral') return false;
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
  return nsToMs(latest.finishedAt) + delay;
}

/** Whether the exited latest attempt of an entry will be started again. */
export function willRestart(pod: Pod, entry: ContainerEntry): boolean {
  const latest = entry.info.latest;
  return !!latest && isExited(latest) && (!!entry.info.restartRequested || shouldRestart(pod, entry.role, latest.exitCode));
}

/** A regular container was created: the pod was initialized once, whatever its sidecars do since. */
export const anyMainCreated = (view: PodView): boolean => mainEntries(view).some(({ info }) => !!info.latest);

/** Regular init containers done and sidecars started (startup probe passed): main containers may start. */
export function initialized(view: PodView): boolean {
  return anyMainCreated(view) || initEntries(view).every(({ role, info }) => (role === 'sidecar' ? info.started : exitedOk(info.latest)));
}

/** A regular init container failed for good (restartPolicy Never). */
export function initFailed(view: PodView): boolean {
  return initEntries(view).some((e) => e.role === 'init' && isExited(e.info.latest) && !exitedOk(e.info.latest) && !willRestart(view.pod, e));
}

/** Every regular container has exited and none will be restarted. */
export function mainDone(view: PodView): boolean {
  return mainEntries(view).every((e) => isExited(e.info.latest) && !willRestart(view.pod, e));
}
