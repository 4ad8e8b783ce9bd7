/**
 * The kubelet's admission of a pod bound to its node (docs/design/simulated-nodes.md §21), in the
 * order kubelet's predicate admit handler checks: node resources against the active pods (pods,
 * then cpu, memory, ephemeral storage, extended resources), required node affinity and
 * nodeSelector, the node name, host ports, and untolerated NoExecute taints. Only the first failure
 * is reported, with kubelet's reason and message.
 */
import type { Node, Pod } from '../../../api/core/index.js';
import { firstUntoleratedTaint, requiredNodeMatcher } from '../../../machinery/scheduling/index.js';
import { HostPortSet, podHostPorts } from '../../scheduler/host-ports.js';
import { addInto, allocatableOf, emptyResources, podRequests } from '../../scheduler/resources.js';

export interface Rejection { reason: string; message: string }

const predicate = (name: string, why: string): Rejection => ({ reason: name, message: `Predicate ${name} failed: ${why}` });

function insufficient(resource: string, requested: number, used: number, capacity: number): Rejection {
  return { reason: `OutOf${resource}`, message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}` };
}

/** Why the kubelet on `node` refuses `pod` next to `active` (the node's admitted, non-terminal pods), or undefined. */
export function admissionFailure(pod: Pod, node: Node, active: readonly Pod[]): Rejection | undefined {
  return resourceFailure(pod, node, active)
    ?? (requiredNodeMatcher(pod.spec)(node.metadata.labels ?? {}, node.metadata.name!) ? undefined : predicate('NodeAffinity', "node(s) didn't match Pod's node affinity/selector"))
    ?? (pod.spec.nodeName && pod.spec.nodeName !== node.metadata.name ? predicate('NodeName', "node(s) didn't match the requested node name") : undefined)
    ?? portsFailure(pod, active)
    ?? (firstUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, ['NoExecute']) ? predicate('TaintToleration', "node(s) had taints that the pod didn't tolerate") : undefined);
}

function resourceFailure(pod: Pod, node: Node, active: readonly Pod[]): Rejection | undefined {
  const allocatable = allocatableOf(node.status?.allocatable);
  if (active.length + 1 > allocatable.pods) return insufficient('pods', 1, active.length, allocatable.pods);
  const want = podRequests(pod.spec);
  const used = emptyResources();
  for (const p of active) addInto(used, podRequests(p.spec));
  if (want.milliCpu > 0 && want.milliCpu > allocatable.milliCpu - used.milliCpu) return insufficient('cpu', want.milliCpu, used.milliCpu, allocatable.milliCpu);
  if (want.memory > 0 && want.memory > allocatable.memory - used.memory) return insufficient('memory', want.memory, used.memory, allocatable.memory);
  if (want.ephemeralStorage > 0 && want.ephemeralStorage > allocatable.ephemeralStorage - used.ephemeralStorage) {
    return insufficient('ephemeral-storage', want.ephemeralStorage, used.ephemeralStorage, allocatable.ephemeralStorage);
  }
  for (const [name, v] of Object.entries(want.scalar ?? {})) {
    const cap = allocatable.scalar?.[name] ?? 0;
    const inUse = used.scalar?.[name] ?? 0;
    if (v > 0 && v > cap - inUse) return insufficient(name, v, inUse, cap);
  }
  return undefined;
}

function portsFailure(pod: Pod, active: readonly Pod[]): Rejection | undefined {
  const wanted = podHostPorts(pod.spec);
  if (wanted.length === 0) return undefined;
  const inUse = new HostPortSet();
  for (const p of active) inUse.add(podHostPorts(p.spec));
  return inUse.anyConflict(wanted) ? predicate('NodePorts', "node(s) didn't have free ports for the requested pod ports") : undefined;
}
