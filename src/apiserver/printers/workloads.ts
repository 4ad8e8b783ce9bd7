/**
 * Printers for apps/v1 workloads: Deployment, ReplicaSet, StatefulSet, DaemonSet and
 * ControllerRevision, with kubectl's columns (READY "2/3", UP-TO-DATE...).
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, containersColumn, imagesColumn, nameColumn, printer, selectorColumn } from './columns.js';
import { asObject, asString, createdAt, nameOf, numberAt, objectAt, valueAt } from './fields.js';
import { containerCells, formatLabels, formatLabelSelector, groupKindName, selectorString } from './format.js';

const selectorDescription =
  'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.';

function templateCells(obj: unknown): [string, string] {
  return containerCells(objectAt(obj, 'spec', 'template', 'spec'));
}

/** spec.replicas defaults to 1 on the server; an unset value prints as that default. */
function desiredReplicas(obj: unknown): number {
  const v = valueAt(obj, 'spec', 'replicas');
  return typeof v === 'number' ? v : 1;
}

export const deploymentPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Ready', 'string', 'Number of the pod with ready state'),
    col('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    selectorColumn(selectorDescription),
  ],
  (d, now) => [
    nameOf(d),
    `${numberAt(d, 'status', 'readyReplicas')}/${desiredReplicas(d)}`,
    numberAt(d, 'status', 'updatedReplicas'),
    numberAt(d, 'status', 'availableReplicas'),
    ageSince(createdAt(d), now),
    ...templateCells(d),
    selectorString(valueAt(d, 'spec', 'selector')) ?? '<invalid>',
  ],
);

export const replicaSetPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Desired', 'integer', 'Replicas is the number of desired pods.'),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    selectorColumn('Selector is a label query over pods that should match the replica count.'),
  ],
  (rs, now) => [
    nameOf(rs),
    desiredReplicas(rs),
    numberAt(rs, 'status', 'replicas'),
    numberAt(rs, 'status', 'readyReplicas'),
    ageSince(createdAt(rs), now),
    ...templateCells(rs),
    formatLabelSelector(valueAt(rs, 'spec', 'selector')),
  ],
);

export const statefulSetPrinter: TablePrinter = printer(
  [nameColumn(), col('Ready', 'string', 'Number of the pod with ready state'), ageColumn(), containersColumn(), imagesColumn()],
  (ss, now) => [
    nameOf(ss),
    `${numberAt(ss, 'status', 'readyReplicas')}/${desiredReplicas(ss)}`,
    ageSince(createdAt(ss), now),
    ...templateCells(ss),
  ],
);

export const daemonSetPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod.'),
    col('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
    col('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    col('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.'),
    col('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node."),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    selectorColumn('A label query over pods that are managed by the daemon set.'),
  ],
  (ds, now) => [
    nameOf(ds),
    numberAt(ds, 'status', 'desiredNumberScheduled'),
    numberAt(ds, 'status', 'currentNumberScheduled'),
    numberAt(ds, 'status', 'numberReady'),
    numberAt(ds, 'status', 'updatedNumberScheduled'),
    numberAt(ds, 'status', 'numberAvailable'),
    formatLabels(valueAt(ds, 'spec', 'template', 'spec', 'nodeSelector')),
    ageSince(createdAt(ds), now),
    ...templateCells(ds),
    formatLabelSelector(valueAt(ds, 'spec', 'selector')),
  ],
);

function controllerOf(obj: unknown): string {
  const refs = valueAt(obj, 'metadata', 'ownerReferences');
  const ref = Array.isArray(refs) ? refs.map(asObject).find((r) => r.controller === true) : undefined;
  if (!ref) return '<none>';
  return groupKindName(asString(ref.apiVersion), asString(ref.kind), asString(ref.name));
}

export const controllerRevisionPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Controller', 'string', 'Controller of the object'),
    col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
    ageColumn(),
  ],
  (cr, now) => [nameOf(cr), controllerOf(cr), numberAt(cr, 'revision'), ageSince(createdAt(cr), now)],
);
