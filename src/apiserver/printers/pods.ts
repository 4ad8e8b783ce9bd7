/**
 * The Pod printer: READY, STATUS and RESTARTS summarised from container statuses the way
 * kubectl shows them (Init:1/2, CrashLoopBackOff, Completed, Terminating, "2 (5m ago)").
 */
import type { TablePrinter } from '../../api/resource.js';
import type { ConditionalPrinter } from './table.js';
import { ageSince, humanDuration } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { arrayAt, asArray, asObject, asString, createdAt, nameOf, objectAt, stringAt } from './fields.js';
import { summarizePod, type PodSummary } from './pod-status.js';

function restartsCell(sum: PodSummary, now: Date): string {
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
