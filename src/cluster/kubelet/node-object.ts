/**
 * The Node a simulated kubelet registers and the status it reports: well-known labels, capacity,
 * addresses (data only: nothing listens on them), nodeInfo and the five node conditions with
 * kubelet's reasons. Node i gets InternalIP 10.0.x.y and pod CIDR block i of 10.244.0.0/16.
 */
import { createHash } from 'node:crypto';
import { intToIp, ipToInt } from '../../daemon/cri/ip-pool.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Node, NodeCondition } from '../../api/core/index.js';

export interface NodeCapacity {
  cpu: string;
  memory: string;
  pods: string;
}

export const defaultCapacity: NodeCapacity = { cpu: '32', memory: '256Gi', pods: '110' };

export interface NodeIdentity {
  name: string;
  index: number;
  zone: string;
  capacity: NodeCapacity;
  labels?: Record<string, string>;
  kubeletVersion: string;
  containerRuntimeVersion: string;
}

export function nodeInternalIp(index: number): string {
  return intToIp(ipToInt('10.0.0.0') + 2 + index);
}

/** A /24 for up to 253 pods (as kube-controller-manager's default node CIDR mask), larger blocks for more. */
export function nodePodCidr(index: number, pods: number): string {
  const bits = Math.max(8, Math.ceil(Math.log2(pods + 3)));
  return `${intToIp(ipToInt('10.244.0.0') + index * 2 ** bits)}/${32 - bits}`;
}

const uuidOf = (seed: string): string => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

export function nodeConditions(now: number, old: NodeCondition[] = []): NodeCondition[] {
  const desired: Omit<NodeCondition, 'lastHeartbeatTime' | 'lastTransitionTime'>[] = [
    { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
    { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated', message: 'RouteController created a route' },
  ];
  return desired.map((c) => {
    const prev = old.find((o) => o.type === c.type);
    const since = prev?.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : rfc3339(now);
    return { ...c, lastHeartbeatTime: rfc3339(now), lastTransitionTime: since };
  });
}

export function nodeStatus(id: NodeIdentity, now: number, old?: Node): NonNullable<Node['status']> {
  const resources = { ...id.capacity, 'ephemeral-storage': '1Ti', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' };
  return {
    capacity: resources,
    allocatable: { ...resources },
    conditions: nodeConditions(now, old?.status?.conditions),
    addresses: [{ type: 'InternalIP', address: nodeInternalIp(id.index) }, { type: 'Hostname', address: id.name }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: uuidOf(`machine:${id.name}`).replaceAll('-', ''),
      systemUUID: uuidOf(`system:${id.name}`),
      bootID: uuidOf(`boot:${id.name}`),
      kernelVersion: '6.1.0-28-amd64',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: id.containerRuntimeVersion,
      kubeletVersion: id.kubeletVersion,
      kubeProxyVersion: id.kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

export function nodeLabels(id: NodeIdentity): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': id.name,
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/zone': id.zone,
    'node.kruise-ts.io/simulated': 'true',
    ...id.labels,
  };
}

export function nodeObject(id: NodeIdentity, now: number): Node {
  const podCidr = nodePodCidr(id.index, Number(id.capacity.pods));
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: {
      name: id.name, labels: nodeLabels(id),
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: podCidr, podCIDRs: [podCidr] },
    status: nodeStatus(id, now),
  };
}
