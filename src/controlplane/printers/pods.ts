/**
 * The Pod printer: READY, STATUS and RESTARTS summarised from container statuses the way
 * kubectl shows them (Init:1/2, CrashLoopBackOff, Completed, Terminating, "2 (5m ago)").
 */
import type { TablePrinter } from '../../api/resource.js';
import type { ConditionalPrinter } from './table.js';
import { ageSince, humanDuration, parseTimestamp } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { arrayAt, asArray, asNumber, asObject, asString, createdAt, nameOf, objectAt, stringAt, type JsonObject } from './fields.js';

interface Summary {
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
function scanInitContainers(pod: unknown, sum: Summary, sidecarSum: Summary, sidecars: Set<string>): boolean {
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
function scanContainers(pod: unknown, sum: Summary): void {
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
export function summarizePod(pod: unknown): Summary {
  const status = objectAt(pod, 'status');
  const phase = asString(status.phase);
  const sidecars = new Set<string>();
  for (const c of arrayAt(pod, 'spec', 'initContainers').map(asObject)) {
    if (c.restartPolicy === 'Always') sidecars.add(asString(c.name));
  }
  const sum: Summary = {
    ready: 0,
    total: arrayAt(pod, 'spec', 'containers').length + sidecars.size,
    reason: asString(status.reason) || phase,
    restarts: 0,
  };
  for (const c of asArray(status.conditions).map(asObject)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') sum.reason = 'SchedulingGated';
  }
  const sidecarSum: Summary = { ...sum, restarts: 0, lastRestart: undefined };
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

function restartsCell(sum: Summary, now: Date): string {
  if (sum.restarts === 0 || !sum.lastRestart) return String(sum.restarts);
  return `${sum.restarts} (${humanDuration(now.getTime() - sum.lastRestart.getTime())} ago)`;
}

function readinessGates(pod: unknown): string {
  const gates = arrayAt(pod, 'spec', 'readinessGates').map(asObject);
  if (gates.length === 0) return '<none>';
  const conditions = arrayAt(pod, 'status', 'conditions').map(asObject);
  const ready = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${ready}/${gates.length}`;
}

function wideCells(pod: unknown): string[] {
  const status = objectAt(pod, 'status');
  const ip = stringAt(asArray(status.podIPs)[0], 'ip') || asString(status.podIP);
  return [
    ip || '<none>',
    stringAt(pod, 'spec', 'nodeName') || '<none>',
    asString(status.nominatedNodeName) || '<none>',
    readinessGates(pod),
  ];
}

const podColumns: TablePrinter = printer(
  [
    nameColumn(),
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn(),
    wide('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster.'),
    wide('Node', 'string', 'NodeName indicates in which node this pod is scheduled.'),
    wide('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node.'),
    wide('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.'),
  ],
  (pod, now) => {
    const sum = summarizePod(pod);
    return [nameOf(pod), `${sum.ready}/${sum.total}`, sum.reason, restartsCell(sum, now), ageSince(createdAt(pod), now), ...wideCells(pod)];
  },
);

/** Finished pods carry a `Completed` row condition, as upstream's printer sets. */
export const podPrinter: ConditionalPrinter = {
  ...podColumns,
  conditions(pod) {
    const phase = stringAt(pod, 'status', 'phase');
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
};
