/** core/v1 pods: defaults (scheme + admission side effects), create-time status, validation, fields, grace. */
import type { KObject } from '../../../api/meta.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { podBindingSubresource } from './pod-binding.js';
import { podEphemeralContainersSubresource } from './pod-ephemeral-containers.js';
import { podEvictionSubresource } from './pod-eviction.js';
import { podLogSubresource } from './pod-log.js';
import type { KubeletConnections } from '../../../api/pod-streams.js';
import { builtin, resource } from './define.js';
import { admitPod, defaultPod } from './pod-defaults.js';
import { validatePodSpec } from '../../../machinery/podspec/pod-spec-validation.js';
import { validatePodUpdate } from './pod-update-validation.js';
import { podQosClass } from './qos.js';
import { child, items, num, str, type Json } from '../../../machinery/json.js';

export const podSubresources = ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward'];

/** Status of a new pod: Pending with its QoS class, and PodScheduled=False while scheduling gates remain. */
export function preparePodForCreate(pod: KObject): void {
  const status: Json = { phase: 'Pending', qosClass: podQosClass(pod) };
  if (items(child(pod, 'spec'), 'schedulingGates').length > 0) {
    status.conditions = [{
      type: 'PodScheduled', status: 'False', lastProbeTime: null,
      lastTransitionTime: pod.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
    }];
  }
  pod.status = status;
}

export function podFieldAttributes(pod: KObject): Record<string, string> {
  const spec = child(pod, 'spec');
  const status = child(pod, 'status');
  const podIPs = items(status, 'podIPs');
  return {
    'spec.nodeName': str(spec, 'nodeName'),
    'spec.restartPolicy': str(spec, 'restartPolicy'),
    'spec.schedulerName': str(spec, 'schedulerName'),
    'spec.serviceAccountName': str(spec, 'serviceAccountName'),
    'spec.hostNetwork': String(spec?.hostNetwork === true),
    'status.phase': str(status, 'phase'),
    'status.podIP': podIPs.length > 0 ? str(podIPs[0], 'ip') : str(status, 'podIP'),
    'status.nominatedNodeName': str(status, 'nominatedNodeName'),
  };
}

/** CheckGracefulDelete: the pod's own grace (30 s default, negative as 1); 0 when unscheduled or finished. */
export function podGracePeriodSeconds(pod: KObject): number {
  if (podDeletesAtOnce(pod)) return 0;
  const grace = num(child(pod, 'spec'), 'terminationGracePeriodSeconds') ?? 30;
  return grace < 0 ? 1 : grace;
}

/** A pod not on a node, or finished, has no kubelet to stop it: it goes at once. */
export function podDeletesAtOnce(pod: KObject): boolean {
  const phase = str(child(pod, 'status'), 'phase');
  return !str(child(pod, 'spec'), 'nodeName') || phase === 'Succeeded' || phase === 'Failed';
}

/** Served pod subresources besides status; the rest of podSubresources is only advertised. */
const podSubresourceStorages = (kubelets?: KubeletConnections) => ({
  binding: podBindingSubresource, ephemeralcontainers: podEphemeralContainersSubresource, eviction: podEvictionSubresource, log: podLogSubresource(kubelets),
});

export function podsResource(kubelets?: KubeletConnections): BuiltinResource {
  const pods = builtin(resource({
    group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true,
    shortNames: ['po'], categories: ['all'], status: true, extra: podSubresources,
  }), {
    default: defaultPod,
    admissionDefaults: admitPod,
    prepareForCreate: preparePodForCreate,
    // a /status write keeps the stored spec: validated when it was written
    validate: (pod, old) => (old && pod.spec === old.spec ? [] : validatePodSpec(pod.spec, 'spec')),
    validateUpdate: validatePodUpdate,
    fieldAttributes: podFieldAttributes,
    defaultGracePeriodSeconds: podGracePeriodSeconds,
    deletesAtOnce: podDeletesAtOnce,
    returnDeletedObject: true,
  });
  return { ...pods, subresources: podSubresourceStorages(kubelets) };
}
