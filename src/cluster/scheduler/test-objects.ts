/** Builders of Node and Pod objects for the scheduler's tests (pure data, no API). */
import { SchedulerCache } from './cache.js';
import type { Container, Node, Pod, PodSpec, Taint } from '../../api/core/index.js';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  ready?: 'True' | 'False' | 'Unknown';
  extra?: Record<string, string>;
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  const allocatable = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: String(o.pods ?? 110), ...o.extra };
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable, capacity: allocatable, conditions: [{ type: 'Ready', status: o.ready ?? 'True' }] },
  };
}

export interface PodOptions extends Omit<PodSpec, 'containers'> {
  namespace?: string;
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
  containers?: Container[];
  owner?: string;
}

export function makePod(name: string, o: PodOptions = {}): Pod {
  const { namespace, labels, cpu, memory, containers, owner, ...spec } = o;
  const requests: Record<string, string> = {};
  if (cpu) requests.cpu = cpu;
  if (memory) requests.memory = memory;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: namespace ?? 'default', labels,
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: `uid-${owner}`, controller: true }] } : {}),
    },
    spec: {
      schedulerName: 'default-scheduler',
      containers: containers ?? [{ name: 'c', image: 'nginx', resources: cpu || memory ? { requests } : {} } as Container],
      ...spec,
    },
  };
}

/** A cache holding `nodes` and the bound `pods` (each pod's spec.nodeName set to the given node). */
export function clusterOf(nodes: Node[], bound: [Pod, string][] = []): SchedulerCache {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.setNode(n);
  for (const [pod, node] of bound) cache.setPod({ ...pod, spec: { ...pod.spec, nodeName: node } });
  return cache;
}
