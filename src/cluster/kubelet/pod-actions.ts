/**
 * What the kubelet should do next for one pod (kubelet's computePodActions), as data: create the
 * sandbox, start init containers one at a time in order, then start every container; restart exited
 * containers per restartPolicy after the crash-loop back-off; replace a running container whose spec
 * image changed (in-place update); stop everything once the pod is terminal or being deleted.
 */
import { sameImage } from '../../daemon/cri/image-ref.js';
import type { ContainerRole } from './simulate-annotations.js';
import {
  exitedOk, initEntries, initFailed, isExited, isRunning, mainDone, mainEntries, restartAllowedAt, shouldRestart,
  type ContainerEntry, type PodView,
} from './pod-view.js';
import type { Container } from '../../api/core/index.js';

export type PodAction =
  | { type: 'createSandbox' }
  | { type: 'start'; container: Container; role: ContainerRole; attempt: number }
  /** Stop the running attempt (timeout in seconds), then start `attempt` with the new spec. */
  | { type: 'replace'; container: Container; role: ContainerRole; attempt: number; containerId: string; timeoutSeconds: number }
  | { type: 'stop'; containerId: string; timeoutSeconds: number };

export interface ActionPlan {
  actions: PodAction[];
  /** Sync again at this time (a back-off ends). */
  wakeAt?: number;
}

function gracePeriodSeconds(view: PodView): number {
  const { metadata, spec } = view.pod;
  return Math.max(0, metadata.deletionGracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30);
}

/** Stop every container that is still running or created (pod terminal or being deleted). */
export function stopAllActions(view: PodView, timeoutSeconds = gracePeriodSeconds(view)): PodAction[] {
  const out: PodAction[] = [];
  for (const { info } of [...initEntries(view), ...mainEntries(view)]) {
    if (info.latest && !isExited(info.latest)) out.push({ type: 'stop', containerId: info.latest.id, timeoutSeconds });
  }
  return out;
}

/** Start (or restart) one container if it needs it; updates `plan.wakeAt` for back-offs. */
function ensureRunning(view: PodView, entry: ContainerEntry, plan: ActionPlan): 'running' | 'waiting' | 'done' {
  const { spec, role, info } = entry;
  const latest = info.latest;
  if (info.busy) return 'waiting';
  if (info.pullError && view.now < info.pullError.retryAt) {
    plan.wakeAt = Math.min(plan.wakeAt ?? Infinity, info.pullError.retryAt);
    return 'waiting';
  }
  if (!latest) {
    plan.actions.push({ type: 'start', container: spec, role, attempt: 0 });
    return 'waiting';
  }
  const next = latest.metadata.attempt + 1;
  if (isRunning(latest)) {
    if (role === 'init' || sameImage(latest.image.image, spec.image ?? '')) return 'running';
    plan.actions.push({ type: 'replace', container: spec, role, attempt: next, containerId: latest.id, timeoutSeconds: gracePeriodSeconds(view) });
    return 'waiting';
  }
  if (!isExited(latest)) return 'waiting';
  if (exitedOk(latest) && role === 'init') return 'done';
  if (!shouldRestart(view.pod, role, latest.exitCode)) return 'done';
  const at = sameImage(latest.image.image, spec.image ?? '') ? restartAllowedAt(view, latest) : 0;
  if (view.now < at) {
    plan.wakeAt = Math.min(plan.wakeAt ?? Infinity, at);
    return 'waiting';
  }
  plan.actions.push({ type: 'start', container: spec, role, attempt: next });
  return 'waiting';
}

/** The plan for a pod that is neither terminal nor being deleted. */
export function computePodActions(view: PodView): ActionPlan {
  const plan: ActionPlan = { actions: [] };
  if (!view.sandbox) {
    if (!view.sandboxBusy) plan.actions.push({ type: 'createSandbox' });
    return plan;
  }
  if (initFailed(view)) return { actions: stopAllActions(view) };
  for (const entry of initEntries(view)) {
    // init containers run one at a time, in order; a native sidecar only has to have started
    const state = ensureRunning(view, entry, plan);
    if (state === 'waiting' || (state === 'running' && entry.role === 'init')) return plan;
  }
  for (const entry of mainEntries(view)) ensureRunning(view, entry, plan);
  if (mainDone(view)) {
    // a finished Job pod: native sidecars are stopped, nothing restarts any more
    plan.actions = stopAllActions(view);
    plan.wakeAt = undefined;
  }
  return plan;
}
