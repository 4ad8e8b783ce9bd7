/**
 * The pod phase the way the kubelet derives it (getPhase): Pending until init containers are done
 * and every container has started once, Running while any runs or will restart, and a terminal
 * phase from exit codes when nothing will run again. A terminal phase already in the API is sticky.
 * Only regular containers count: native sidecars and ephemeral containers never hold a pod back.
 */
import { exitedOk, initFailed, initialized, isExited, mainEntries, runsPastPostStart, willRestart, type PodView } from './pod-view.js';
import type { PodPhase } from '../../api/core/index.js';

/** `terminated`: the pod is being deleted and all its containers have stopped. */
export function podPhase(view: PodView, terminated = false): PodPhase {
  const current = view.pod.status?.phase;
  if (current === 'Succeeded' || current === 'Failed') return current;
  const entries = mainEntries(view);
  if (terminated) return entries.length > 0 && entries.every(({ info }) => exitedOk(info.latest)) ? 'Succeeded' : 'Failed';
  if (initFailed(view)) return 'Failed';
  if (!initialized(view)) return 'Pending';
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  const policy = view.pod.spec.restartPolicy ?? 'Always';
  for (const entry of entries) {
    const { latest, previous } = entry.info;
    if (runsPastPostStart(entry.info)) running++;
    else if (isExited(latest)) {
      stopped++;
      // a container that will restart shows `waiting` with a last state: not a success yet
      if (latest!.exitCode === 0 && !willRestart(view.pod, entry)) succeeded++;
    } else if (previous) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'OnFailure' ? 'Running' : 'Failed';
}

/** What kubelet's active deadline handler writes once spec.activeDeadlineSeconds has passed (§17). */
export const deadlineExceeded = { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' } as const;

/** When the pod's activeDeadlineSeconds runs out, counted from status.startTime (Infinity without either). */
export function activeDeadlineAt(view: PodView): number {
  const seconds = view.pod.spec.activeDeadlineSeconds;
  const start = view.pod.status?.startTime;
  if (seconds === undefined || seconds === null || !start) return Infinity;
  return Date.parse(start) + seconds * 1000;
}
