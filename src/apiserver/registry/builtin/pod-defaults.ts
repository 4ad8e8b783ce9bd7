/**
 * Defaults that only a Pod gets, never a pod template: SetDefaults_Pod (requests copied from limits,
 * enableServiceLinks, host-network ports) and the side effects of the admission plugins a default
 * kube-apiserver runs on pod creation (ServiceAccount, DefaultTolerationSeconds, Priority).
 * All of them are idempotent, so running them again on update changes nothing.
 */
import type { KObject } from '../../../api/meta.js';
import { defaultHostNetworkPorts, defaultPodSpec, mirrorServiceAccount } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, items, num, setDefault, str, type Json } from '../../../machinery/json.js';

export const notReadyTaint = 'node.kubernetes.io/not-ready';
export const unreachableTaint = 'node.kubernetes.io/unreachable';
export const defaultTolerationSeconds = 300;

/** Priorities of the two PriorityClasses every cluster creates for itself. */
const systemPriorities: Record<string, number> = {
  'system-cluster-critical': 2000000000,
  'system-node-critical': 2000001000,
};

export function defaultPod(pod: KObject): void {
  const spec = ensure(pod, 'spec');
  defaultPodSpec(spec);
  setDefault(spec, 'enableServiceLinks', true);
  const containers = [...items(spec, 'initContainers'), ...items(spec, 'containers')];
  for (const c of containers) requestsFromLimits(c);
  defaultHostNetworkPorts(spec);
}

/** The admission plugins' part, kept apart from the scheme defaults for managedFields (strategy.admissionDefaults). */
export function admitPod(pod: KObject): void {
  const spec = ensure(pod, 'spec');
  if (!pod.metadata.annotations?.['kubernetes.io/config.mirror']) admitServiceAccount(spec);
  admitDefaultTolerations(spec);
  admitPriority(spec);
}

function requestsFromLimits(c: Json): void {
  const resources = child(c, 'resources');
  const limits = child(resources, 'limits');
  if (!resources || !limits || Object.keys(limits).length === 0) return;
  const requests = ensure(resources, 'requests');
  for (const [name, value] of Object.entries(limits)) if (requests[name] === undefined) requests[name] = value;
}

function admitServiceAccount(spec: Json): void {
  if (!str(spec, 'serviceAccountName') && !str(spec, 'serviceAccount')) spec.serviceAccountName = 'default';
  mirrorServiceAccount(spec);
}

/** DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 300 s unless already tolerated. */
function admitDefaultTolerations(spec: Json): void {
  const tolerations = items(spec, 'tolerations');
  const tolerates = (key: string) => tolerations.some((t) =>
    (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'));
  const added: Json[] = [];
  for (const key of [notReadyTaint, unreachableTaint]) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  }
  if (added.length === 0) return;
  spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...added];
}

/** Priority admission without a lookup: 0 unless a system class is named; the policy the class would give. */
function admitPriority(spec: Json): void {
  const className = str(spec, 'priorityClassName');
  if (num(spec, 'priority') === undefined && (!className || className in systemPriorities)) {
    spec.priority = className ? systemPriorities[className] : 0;
  }
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
}
