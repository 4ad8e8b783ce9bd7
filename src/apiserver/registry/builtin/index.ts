/**
 * The catalogue of built-in resources the embedded API server serves, with kube-apiserver 1.32's
 * discovery names and each kind's defaulting/validation strategy. Groups come in discovery order
 * (core first, then apps, events.k8s.io, ...), resources within a group sorted by plural.
 */
import type { BuiltinResource } from '../builtin-resource.js';
import { mutatingWebhookConfigurationsResource, validatingWebhookConfigurationsResource } from './admissionregistration.js';
import { validatingAdmissionPoliciesResource, validatingAdmissionPolicyBindingsResource } from './admission-policies.js';
import { apiServicesResource, certificateSigningRequestsResource } from './certificates-apiregistration.js';
import { bindingsResource, componentStatusesResource } from './core-componentstatus.js';
import { flowControlResources } from './flowcontrol.js';
import { ingressClassesResource, ingressesResource, networkPoliciesResource, runtimeClassesResource } from './networking.js';
import { customResourceDefinitionsResource } from './apiextensions.js';
import { controllerRevisionsResource, daemonSetsResource } from './apps-daemonsets.js';
import { deploymentsResource, replicaSetsResource } from './apps-deployments.js';
import { statefulSetsResource } from './apps-statefulsets.js';
import { hpaResources, resourceMetricsResources } from './autoscaling-hpa.js';
import { cronJobsResource } from './batch-cronjobs.js';
import { jobsResource } from './batch-jobs.js';
import { endpointSlicesResource, priorityClassesResource, reviewResources, storageClassesResource } from './cluster-misc.js';
import { configMapsResource, secretsResource, serviceAccountsResource } from './core-config.js';
import { endpointsResource, limitRangesResource, nodesResource, podTemplatesResource, resourceQuotasResource } from './core-misc.js';
import { namespacesResource } from './core-namespaces.js';
import { podsResource } from './core-pods.js';
import { replicationControllersResource } from './core-replicationcontrollers.js';
import { servicesResource } from './core-services.js';
import { claimsResource, persistentVolumesResource } from './core-storage.js';
import { coreEventsResource, eventsV1Resource } from './events.js';
import { leasesResource, podDisruptionBudgetsResource } from './policy-coordination.js';
import { rbacResources } from './rbac.js';
import { csiResources } from './storage-csi.js';
import type { TokenIssuer } from './serviceaccount-token.js';
import type { KubeletConnections } from '../../../api/pod-streams.js';
import { createRandomAllocator, type ServiceAllocator } from './service-allocation.js';
import { compareStrings } from '../../../machinery/order.js';

export interface BuiltinOptions {
  /** Cluster IP and node port allocation for Services (default: random within 10.96.0.0/12, 30000-32767). */
  serviceAllocator?: ServiceAllocator;
  /** Mints ServiceAccount tokens for `serviceaccounts/token` (docs/design/authorization.md §8). */
  tokenIssuer?: TokenIssuer;
  /** The kubelets pods/log reads from (docs/design/streaming.md §4); without them logs are one placeholder line. */
  kubelets?: KubeletConnections;
}

/** kube-apiserver 1.32's order of `/apis` (groupPriorityMinimum, highest first). */
const groupOrder = ['', 'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling',
  'batch', 'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io',
  'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io', 'metrics.k8s.io'];

export function builtinResources(options: BuiltinOptions = {}): BuiltinResource[] {
  const all: BuiltinResource[] = [
    configMapsResource(), endpointsResource(), coreEventsResource(), limitRangesResource(), namespacesResource(),
    nodesResource(), claimsResource(), persistentVolumesResource(), podsResource(options.kubelets), podTemplatesResource(),
    replicationControllersResource(), resourceQuotasResource(), secretsResource(), serviceAccountsResource(options.tokenIssuer),
    servicesResource(options.serviceAllocator ?? createRandomAllocator()),
    controllerRevisionsResource(), daemonSetsResource(), deploymentsResource(), replicaSetsResource(), statefulSetsResource(),
    eventsV1Resource(), ...reviewResources(), ...hpaResources(), cronJobsResource(), jobsResource(), podDisruptionBudgetsResource(),
    ...rbacResources(), storageClassesResource(), ...csiResources(), ...resourceMetricsResources(),
    mutatingWebhookConfigurationsResource(), validatingWebhookConfigurationsResource(),
    customResourceDefinitionsResource(), priorityClassesResource(), leasesResource(), endpointSlicesResource(),
    ...parityResources(),
  ];
  const rank = (r: BuiltinResource) => groupOrder.indexOf(r.definition.group);
  return all.sort((a, b) => rank(a) - rank(b) || compareStrings(a.definition.plural, b.definition.plural));
}

/** The resources added for v1.32 parity (docs/design/apiserver.md §11). */
function parityResources(): BuiltinResource[] {
  return [
    bindingsResource(), componentStatusesResource(), apiServicesResource(), certificateSigningRequestsResource(),
    ingressClassesResource(), ingressesResource(), networkPoliciesResource(), runtimeClassesResource(),
    validatingAdmissionPoliciesResource(), validatingAdmissionPolicyBindingsResource(), ...flowControlResources(),
  ];
}

export { componentStatuses } from './core-componentstatus.js';
export { coreEventToEventsV1, eventsV1ToCoreEvent } from './event-conversion.js';
export { validateEphemeralContainersUpdate, updatablePodSpecFields } from './pod-update-validation.js';
export { namespaceNameLabel } from './core-namespaces.js';
export { createRandomAllocator, serviceCIDR, nodePortRange, type ServiceAllocator } from './service-allocation.js';
export type { TokenIssuer } from './serviceaccount-token.js';
export { controllerUidLabel, jobNameLabel } from './batch-jobs.js';
