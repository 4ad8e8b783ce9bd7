/**
 * status.containerStatuses / initContainerStatuses entries from the runtime's view of a container
 * (kubelet's convertToAPIContainerStatuses): waiting with a reason before the first start or while
 * a restart is pending (or while the postStart hook runs), running with startedAt, terminated with exit
 * code and reason; the previous attempt becomes lastState.
 */
import { normalizeImage } from '../../daemon/cri/image-ref.js';
import type { ContainerStatus as CriContainerStatus } from '../../daemon/cri/types.js';
import { isExited, nsToMs, restartAllowedAt, runsPastPostStart, willRestart, type ContainerEntry, type PodView } from './pod-view.js';
import { rfc3339 } from '../../machinery/time.js';
import type { ContainerState, ContainerStateWaiting, ContainerStatus } from '../../api/core/index.js';

const nsToTime = (ns: number): string | null => (ns > 0 ? rfc3339(nsToMs(ns)) : null);

function terminated(c: CriContainerStatus, runtimeName: string): ContainerState {
  return {
    terminated: {
      exitCode: c.exitCode, reason: c.reason || (c.exitCode === 0 ? 'Completed' : 'Error'),
      startedAt: nsToTime(c.startedAt), finishedAt: nsToTime(c.finishedAt), containerID: `${runtimeName}://${c.id}`,
    },
  };
}

/** Why a container that is not running yet waits. */
function waitingReason(view: PodView, entry: ContainerEntry, initDone: boolean): ContainerStateWaiting {
  const { info, role } = entry;
  if (info.pullError) {
    // the first failure reads ErrImagePull until its retry, as kubelet reports the failed sync itself
    const backingOff = view.now < info.pullError.retryAt && !info.busy && (info.pullError.failures ?? 2) > 1;
    return { reason: backingOff ? 'ImagePullBackOff' : 'ErrImagePull', message: backingOff ? `Back-off pulling image "${entry.spec.image}": ${info.pullError.message}` : info.pullError.message };
  }
  if (info.configError) return { reason: 'CreateContainerConfigError', message: info.configError.message };
  const latest = info.latest;
  if (latest && isExited(latest) && !info.busy && view.now < restartAllowedAt(view, latest)) {
    const delayS = Math.round((restartAllowedAt(view, latest) - nsToMs(latest.finishedAt)) / 1000);
    return { reason: 'CrashLoopBackOff', message: `back-off ${delayS}s restarting failed container=${entry.spec.name} pod=${view.pod.metadata.name}_${view.pod.metadata.namespace}(${view.pod.metadata.uid})` };
  }
  if (latest && isExited(latest) && info.postStart?.state === 'failed') return { reason: 'PostStartHookError', message: info.postStart.message };
  return { reason: role === 'main' && !initDone ? 'PodInitializing' : 'ContainerCreating' };
}

/**
 * A container being replaced (killed because its spec changed, next attempt starting) keeps the
 * status last reported for it: kubelet's SyncPod kills, pulls and starts it in one call and writes
 * the pod status only around that call (docs/design/simulated-nodes.md §23).
 */
function lastReported(view: PodView, entry: ContainerEntry): ContainerStatus | undefined {
  if (!entry.info.replacing) return undefined;
  const reported = entry.role === 'main' ? view.pod.status?.containerStatuses : view.pod.status?.initContainerStatuses;
  return reported?.find((s) => s.name === entry.spec.name);
}

export function containerStatus(view: PodView, entry: ContainerEntry, initDone: boolean): ContainerStatus {
  const frozen = lastReported(view, entry);
  if (frozen) return { ...frozen };
  const { spec, info, role } = entry;
  const { latest, previous } = info;
  const rt = view.runtimeName;
  if (!latest) {
    return { name: spec.name, state: { waiting: waitingReason(view, entry, initDone) }, lastState: {}, ready: false, restartCount: 0, image: spec.image ?? '', imageID: '', started: false };
  }
  const base = {
    name: spec.name, restartCount: latest.metadata.attempt, image: normalizeImage(latest.image.image),
    imageID: latest.imageRef, containerID: `${rt}://${latest.id}`,
  };
  if (runsPastPostStart(info)) {
    return { ...base, state: { running: { startedAt: nsToTime(latest.startedAt) ?? undefined } }, lastState: previous && isExited(previous) ? terminated(previous, rt) : {}, ready: info.ready && role !== 'ephemeral', started: info.started };
  }
  if (isExited(latest)) {
    const restarting = willRestart(view.pod, entry) && !terminal(view);
    const doneInit = role === 'init' && latest.exitCode === 0;
    if (restarting) return { ...base, state: { waiting: waitingReason(view, entry, initDone) }, lastState: terminated(latest, rt), ready: false, started: false };
    return { ...base, state: terminated(latest, rt), lastState: previous && isExited(previous) ? terminated(previous, rt) : {}, ready: doneInit, started: false };
  }
  // created, not started yet, or its postStart hook still runs
  return { ...base, state: { waiting: { reason: 'ContainerCreating' } }, lastState: previous && isExited(previous) ? terminated(previous, rt) : {}, ready: false, started: false };
}

/** A pod whose containers will not be restarted any more (terminal phase or being deleted). */
export function terminal(view: PodView): boolean {
  const phase = view.pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || !!view.pod.metadata.deletionTimestamp;
}
