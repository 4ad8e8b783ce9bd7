/**
 * The per-container states of a request, judged from the runtime's view (docs/design/container-recreate.md
 * §4.4), and the walk that picks at most one container to stop. Pure: the reconciler does the I/O.
 */
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { RuntimeContainer } from './container-view.js';

export type CRRStatus = NonNullable<ContainerRecreateRequest['status']>;
export type RecreateState = NonNullable<CRRStatus['containerRecreateStates']>[number];

export const NotFoundOnNodeMessage = 'not found container on Node';

const finished = (s: RecreateState | undefined) => s?.phase === 'Succeeded' || s?.phase === 'Failed';

/** Rule: Succeeded/Failed stay; otherwise the runtime decides, and isKilled is carried over. */
export function currentStates(crr: ContainerRecreateRequest, containers: Map<string, RuntimeContainer>, now: number): RecreateState[] {
  const strategy = crr.spec?.strategy ?? {};
  const minStartedMs = (strategy.minStartedSeconds ?? 0) * 1000;
  return (crr.spec?.containers ?? []).map((c): RecreateState => {
    const previous = crr.status?.containerRecreateStates?.find((s) => s.name === c.name);
    if (previous && finished(previous)) return previous;
    const isKilled = previous?.isKilled ? { isKilled: true } : {};
    const running = containers.get(c.name);
    if (!running) return { name: c.name, phase: 'Pending', message: NotFoundOnNodeMessage, ...isKilled };
    if (running.state !== 'CONTAINER_RUNNING') return { name: c.name, phase: 'Recreating', ...isKilled };
    if (strategy.forceRecreate && !previous?.isKilled) return { name: c.name, phase: 'Pending' };
    const context = c.statusContext;
    const replaced = running.containerID !== context?.containerID || running.restartCount > (context?.restartCount ?? 0);
    if (!replaced) return { name: c.name, phase: 'Pending', ...isKilled };
    const seen = crr.status?.containerStatusSnapshot?.find((s) => s.name === c.name);
    const settled = seen?.containerID === running.containerID && seen.ready && now - running.startedAt > minStartedMs;
    return { name: c.name, phase: settled ? 'Succeeded' : 'Recreating', ...isKilled };
  });
}

export type WalkStep =
  | { kind: 'kill'; index: number }
  | { kind: 'fail' }
  | { kind: 'wait' }
  | { kind: 'done' };

/**
 * Walks the containers in order: finished ones count, a Failed one under policy Fail ends the
 * request, Recreating ones are marked killed (and hold the walk when ordered), and the first
 * Pending one is the next to stop. Marks `isKilled` on `states` in place.
 */
export function nextStep(crr: ContainerRecreateRequest, states: RecreateState[], from = 0): WalkStep {
  const strategy = crr.spec?.strategy ?? {};
  let completed = states.slice(0, from).filter(finished).length;
  for (let i = from; i < states.length; i++) {
    const state = states[i]!;
    if (state.phase === 'Succeeded') { completed++; continue; }
    if (state.phase === 'Failed') {
      completed++;
      if (strategy.failurePolicy === 'Ignore') continue;
      return { kind: 'fail' };
    }
    if (state.phase === 'Recreating') {
      state.isKilled = true;
      if (strategy.orderedRecreate) return { kind: 'wait' };
      continue;
    }
    // a container the runtime does not show cannot be stopped; the kubelet will create it
    if (state.message === NotFoundOnNodeMessage) return { kind: 'wait' };
    return { kind: 'kill', index: i };
  }
  return completed === states.length ? { kind: 'done' } : { kind: 'wait' };
}
