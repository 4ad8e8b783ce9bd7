/**
 * The slices of core/v1 Pod and Node the scheduler reads, as plain JSON shapes. Only the fields
 * that filters and scores look at are declared; everything else passes through untouched.
 */
import type { KObject } from '../../api/meta.js';
import type { MetaLabelSelector } from '../../machinery/labels.js';
import type { NodeAffinity, Taint, Toleration } from '../../machinery/scheduling/index.js';

/** Node affinity, taints and tolerations are shared with the DaemonSet controllers. */
export type {
  NodeAffinity, NodeSelectorOperator, NodeSelectorRequirement, NodeSelectorTerm, Taint, TaintEffect, Toleration,
} from '../../machinery/scheduling/index.js';

export type ResourceList = Record<string, string | number>;

export interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  protocol?: string;
  hostIP?: string;
}

export interface Container {
  name: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  ports?: ContainerPort[];
  /** `Always` on an init container makes it a sidecar that keeps running. */
  restartPolicy?: string;
}

export interface PodAffinityTerm {
  labelSelector?: MetaLabelSelector | null;
  namespaces?: string[];
  namespaceSelector?: MetaLabelSelector | null;
  topologyKey: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: MetaLabelSelector | null;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  containers?: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
  priority?: number;
  /** While any gate is listed the pod is not considered (PreEnqueue SchedulingGates). */
  schedulingGates?: { name: string }[];
}

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export interface Pod extends KObject {
  spec?: PodSpec;
  status?: { phase?: string; conditions?: PodCondition[]; nominatedNodeName?: string };
}

export interface NodeCondition {
  type: string;
  status: string;
}

export interface Node extends KObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: { allocatable?: ResourceList; capacity?: ResourceList; conditions?: NodeCondition[] };
}

export const DEFAULT_SCHEDULER = 'default-scheduler';
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

/** `namespace/name`, the key pods are cached and queued under. */
export const podKey = (pod: KObject): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
