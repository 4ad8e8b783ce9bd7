/**
 * Server-side printing: the built-in printers keyed by `<group>/<Kind>` ('' for core, so
 * '/Pod', 'apps/Deployment'), CRD printers, Table building and the JSONPath evaluator.
 * Kinds without an entry (Role, ClusterRole, CustomResourceDefinition...) use `defaultPrinter`.
 */
import type { TablePrinter } from '../../api/resource.js';
import { hpaPrinter } from './autoscaling.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import {
  clusterRoleBindingPrinter,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
  roleBindingPrinter,
  webhookConfigurationPrinter,
} from './cluster.js';
import { configMapPrinter, eventPrinter, eventsV1Printer, namespacePrinter, secretPrinter, serviceAccountPrinter } from './core-misc.js';
import { endpointsPrinter, nodePrinter, servicePrinter } from './network.js';
import { parityPrinters } from './parity.js';
import { podPrinter } from './pods.js';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from './storage.js';
import { csiDriverPrinter, csiNodePrinter, volumeAttachmentPrinter } from './storage-csi.js';
import { defaultPrinter } from './table.js';
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from './workloads.js';

export const builtinPrinters: Record<string, TablePrinter> = {
  '/Pod': podPrinter,
  '/Node': nodePrinter,
  '/Namespace': namespacePrinter,
  '/Service': servicePrinter,
  '/Endpoints': endpointsPrinter,
  '/ConfigMap': configMapPrinter,
  '/Secret': secretPrinter,
  '/ServiceAccount': serviceAccountPrinter,
  '/Event': eventPrinter,
  'events.k8s.io/Event': eventsV1Printer,
  '/PersistentVolumeClaim': persistentVolumeClaimPrinter,
  '/PersistentVolume': persistentVolumePrinter,
  'apps/Deployment': deploymentPrinter,
  'apps/ReplicaSet': replicaSetPrinter,
  'apps/StatefulSet': statefulSetPrinter,
  'apps/DaemonSet': daemonSetPrinter,
  'apps/ControllerRevision': controllerRevisionPrinter,
  'autoscaling/HorizontalPodAutoscaler': hpaPrinter,
  'batch/Job': jobPrinter,
  'batch/CronJob': cronJobPrinter,
  'policy/PodDisruptionBudget': podDisruptionBudgetPrinter,
  'coordination.k8s.io/Lease': leasePrinter,
  'scheduling.k8s.io/PriorityClass': priorityClassPrinter,
  'storage.k8s.io/StorageClass': storageClassPrinter,
  'storage.k8s.io/CSIDriver': csiDriverPrinter,
  'storage.k8s.io/CSINode': csiNodePrinter,
  'storage.k8s.io/VolumeAttachment': volumeAttachmentPrinter,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookConfigurationPrinter,
  'rbac.authorization.k8s.io/RoleBinding': roleBindingPrinter,
  'rbac.authorization.k8s.io/ClusterRoleBinding': clusterRoleBindingPrinter,
  'rbac.authorization.k8s.io/Role': defaultPrinter,
  'rbac.authorization.k8s.io/ClusterRole': defaultPrinter,
  'apiextensions.k8s.io/CustomResourceDefinition': defaultPrinter,
  ...parityPrinters,
};

/** The built-in printer for a group and kind, or `defaultPrinter` (NAME, CREATED AT). */
export function printerFor(group: string, kind: string): TablePrinter {
  return builtinPrinters[`${group}/${kind}`] ?? defaultPrinter;
}

export { ageSince, humanDuration } from './age.js';
export { crdPrinter, type AdditionalPrinterColumn } from './custom-columns.js';
export { compileJsonPath, evaluateJsonPath, formatJsonPathValue, jsonPathValue, type JsonPath } from './jsonpath.js';
export { buildTable, defaultPrinter, type ConditionalPrinter, type IncludeObject, type TableOptions, type TableRowCondition } from './table.js';
export { summarizePod, type PodSummary } from './pod-status.js';
