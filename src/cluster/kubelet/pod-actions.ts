/**
 * What the kubelet should do next for one pod (kubelet's computePodActions), as data: create the
 * sandbox; start ephemeral containers; start init containers one at a time in order (a native
 * sidecar only has to have started: postStart done, startup probe passed); then start every
 * container, in order while a postStart hook runs (kubelet starts them one by one and the hook holds
 * the next); restart exited containers per restartPolicy after the crash-loop back-off; kill
 * containers whose hook or probes failed or whose image changed (kill-actions.ts); and, once the
 * regular containers of a pod that does not restart them are done, stop the rest.
 */
import { sameImage } from '../../daemon/cri/image-ref.js';
import { killAllActions, killForCause, type KillAction } from './kill-actions.js';
import {
  anyMainCreated, ephemeralEntries, exitedOk, initEntries, initFailed, isExited, mainDone, mainEntries, restartAllowedAt, willRestart,
  type ContainerEntry, type EntryRole, type PodView,
} from './pod-view.js';
import type { Container } from '../../api/core/index.js';

export type PodAction =
  | { type: 'createSandbox' }
  | { type: 'start'; container: Container; role: EntryRole; attempt: number }
  | KillAction;

export interface ActionPlan {
  actions: PodAction[];
  /** Sync again at this time (a back-off ends). */
  wakeAt?: number;
}

type EntryState = 'running' | 'waiting' | 'done';

/** Waits until `retryAt` if a failure is backing off; true while it does. */
function backingOff(view: PodView, failure: { retryAt: number } | undefined, plan: ActionPlan): boolean {
  if (!failure || view.now >= failure.retryAt) return false;
  plan.wakeAt = Math.min(plan.wakeAt ?? Infinity, failure.retryAt);
  return true;
}

/** Start, restart or kill one container as it needs; `held`: no new start now (an earlier hook runs). */
function ensureRunning(view: PodView, entry: ContainerEntry, plan: ActionPlan, held = false): EntryState {
  const { spec, role, info } = entry;
  const latest = info.latest;
  if (info.busy) return 'waiting';
  if (backingOff(view, info.pullError, plan) || backingOff(view, info.configError, plan)) return 'waiting';
  const start = (attempt: number): EntryState => {
    if (!held) plan.actions.push({ type: 'start', container: spec, role, attempt });
    return 'waiting';
  };
  if (!latest) return start(0);
  if (!isExited(latest)) {
    const kill = killForCause(view, entry);
    if (kill) plan.actions.push(kill);
    return !kill && info.started ? 'running' : 'waiting';
  }
  if (role === 'ephemeral' || (exitedOk(latest) && role === 'init')) return 'done';
  if (!willRestart(view.pod, entry)) return 'done';
  const at = sameImage(latest.image.image, spec.image ?? '') ? restartAllowedAt(view, latest) : 0;
  if (view.now < at) {
    plan.wakeAt = Math.min(plan.wakeAt ?? Infinity, at);
    return 'waiting';
  }
  return start(latest.metadata.attempt + 1);
}

/** A container whose start (with its postStart hook) is under way, or starts now, holds the ones after it. */
const holdsLater = ({ spec, info }: ContainerEntry, starting: boolean): boolean =>
  !!spec.lifecycle?.postStart && (starting || info.busy || info.postStart?.state === 'running');

/** The plan for a pod that is neither terminal nor being deleted. */
export function computePodActions(view: PodView): ActionPlan {
  const plan: ActionPlan = { actions: [] };
  if (!view.sandbox) {
    if (!view.sandboxBusy) plan.actions.push({ type: 'createSandbox' });
    return plan;
  }
  for (const entry of ephemeralEntries(view)) ensureRunning(view, entry, plan);
  if (initFailed(view)) return { actions: killAllActions(view) };
  const initDone = anyMainCreated(view); // since then, sidecars restart without holding anything back
  for (const entry of initEntries(view)) {
    // init containers run one at a time, in order; a native sidecar only has to have started
    const state = ensureRunning(view, entry, plan);
    if (!initDone && (state === 'waiting' || (state === 'running' && entry.role === 'init'))) return plan;
  }
  let held = false;
  for (const entry of mainEntries(view)) {
    const planned = plan.actions.length;
    ensureRunning(view, entry, plan, held);
    held ||= holdsLater(entry, plan.actions.slice(planned).some((a) => a.type === 'start'));
  }
  if (mainDone(view)) {
    // a finished Job pod: native sidecars are stopped, nothing restarts any more
    plan.actions = killAllActions(view);
    plan.wakeAt = undefined;
  }
  return plan;
}
