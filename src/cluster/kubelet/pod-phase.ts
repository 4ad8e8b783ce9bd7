/**
 * The pod phase the way the kubelet derives it (getPhase): Pending until init containers are done
 * and every container has started once, Running while any runs or will restart, and a terminal
 * phase from exit codes when nothing will run again. A terminal phase already in the API is sticky.
 */
import { exitedOk, initFailed, initialized, isExited, isRunning, mainEntries, type PodView } from './pod-view.js';
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
  for (const { info } of entries) {
    const { latest, previous } = info;
    if (isRunning(latest)) running++;
    else if (isExited(latest)) {
      stopped++;
      // a container that will restart shows `waiting` with a last state: not a success yet
      const restarts = policy === 'Always' || (policy === 'OnFailure' && latest!.exitCode !== 0);
      if (latest!.exitCode === 0 && !restarts) succeeded++;
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
