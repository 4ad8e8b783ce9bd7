/**
 * A pod's READY, STATUS and RESTARTS as kubectl's printPod derives them from container statuses:
 * Init:1/2, CrashLoopBackOff, Completed, Terminating, sidecars counted as containers.
 */
import { parseTimestamp } from './age.js';
import { arrayAt, asArray, asNumber, asObject, asString, objectAt, stringAt, type JsonObject } from './fields.js';

export interface PodSummary {
  ready: number;
  total: number;
  reason: string;
  restarts: number;
  lastRestart?: Date;
}

function later(a: Date | undefined, b: unknown): Date | undefined {
  const t = parseTimestamp(b);
  return t && (!a || t > a) ? t : a;
}

function lastTerminated(status: JsonObject): unknown {
  return objectAt(status, 'lastState', 'terminated').finishedAt;
}

function conditionTrue(pod: unknown, type: string): boolean {
  return arrayAt(pod, 'status', 'conditions').some((c) => asObject(c).type === type && asObject(c).status === 'True');
}

function terminatedText(term: JsonObject, prefix: string): string {
  if (asString(term.reason)) return prefix + asString(term.reason);
  const signal = asNumber(term.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${asNumber(term.exitCode)}`;
}

/**
 * Walks init container statuses up to the first one still blocking; returns true while the pod is
 * initializing. Restarts of sidecars (restartable init containers) are also counted into `sidecarSum`.
 */
function scanInitContainers(pod: unknown, sum: PodSummary, sidecarSum: PodSummary, sidecars: Set<string>): boolean {
  const initCount = arrayAt(pod, 'spec', 'initContainers').length;
  const statuses = arrayAt(pod, 'status', 'initContainerStatuses').map(asObject);
  for (let i = 0; i < statuses.length; i++) {
    const cs = statuses[i];
    const state = asObject(cs.state);
    const term = asObject(state.terminated);
    const waiting = asObject(state.waiting);
    sum.restarts += asNumber(cs.restartCount);
    sum.lastRestart = later(sum.lastRestart, lastTerminated(cs));
    const sidecar = sidecars.has(asString(cs.name));
    if (sidecar) {
      sidecarSum.restarts += asNumber(cs.restartCount);
      sidecarSum.lastRestart = later(sidecarSum.lastRestart, lastTerminated(cs));
    }
    if (state.terminated !== undefined && asNumber(term.exitCode) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready === true) sum.ready++;
      continue;
    }
    if (state.terminated !== undefined) sum.reason = terminatedText(term, 'Init:');
    else if (asString(waiting.reason) && waiting.reason !== 'PodInitializing') sum.reason = `Init:${asString(waiting.reason)}`;
    else sum.reason = `Init:${i}/${initCount}`;
    return true;
  }
  return false;
}

/** Walks app container statuses from last to first, as kubectl does, so the first container's reason wins. */
function scanContainers(pod: unknown, sum: PodSummary): void {
  const statuses = arrayAt(pod, 'status', 'containerStatuses').map(asObject);
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const cs = statuses[i];
    const state = asObject(cs.state);
    sum.restarts += asNumber(cs.restartCount);
    sum.lastRestart = later(sum.lastRestart, lastTerminated(cs));
    const waitingReason = stringAt(state, 'waiting', 'reason');
    const term = asObject(state.terminated);
    if (waitingReason) sum.reason = waitingReason;
    else if (state.terminated !== undefined) sum.reason = terminatedText(term, '');
    else if (cs.ready === true && state.running !== undefined) {
      hasRunning = true;
      sum.ready++;
    }
  }
  if (sum.reason === 'Completed' && hasRunning) sum.reason = conditionTrue(pod, 'Ready') ? 'Running' : 'NotReady';
}

/** READY/STATUS/RESTARTS of a pod, following kubectl's printPod. */
export function summarizePod(pod: unknown): PodSummary {
  const status = objectAt(pod, 'status');
  const phase = asString(status.phase);
  const sidecars = new Set<string>();
  for (const c of arrayAt(pod, 'spec', 'initContainers').map(asObject)) {
    if (c.restartPolicy === 'Always') sidecars.add(asString(c.name));
  }
  const sum: PodSummary = {
    ready: 0,
    total: arrayAt(pod, 'spec', 'containers').length + sidecars.size,
    reason: asString(status.reason) || phase,
    restarts: 0,
  };
  for (const c of asArray(status.conditions).map(asObject)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') sum.reason = 'SchedulingGated';
  }
  const sidecarSum: PodSummary = { ...sum, restarts: 0, lastRestart: undefined };
  const initializing = scanInitContainers(pod, sum, sidecarSum, sidecars);
  if (!initializing || conditionTrue(pod, 'Initialized')) {
    sum.restarts = sidecarSum.restarts;
    sum.lastRestart = sidecarSum.lastRestart;
    scanContainers(pod, sum);
  }
  const deleting = objectAt(pod, 'metadata').deletionTimestamp !== undefined;
  if (deleting && status.reason === 'NodeLost') sum.reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') sum.reason = 'Terminating';
  return sum;
}
