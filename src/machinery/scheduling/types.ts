/**
 * The slices of core/v1 Pod and Node that node placement reads (node affinity, taints and
 * tolerations), as plain JSON shapes. Shared by the scheduler and the DaemonSet controllers.
 */
import type { KObject } from '../../api/meta.js';

export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } | null;
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
}

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

/**
 * The pod spec fields placement depends on. No index signature, so the scheduler's closed PodSpec
 * interface fits as well as the controllers' open ones.
 */
export interface PlacementPodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: { nodeAffinity?: NodeAffinity };
  tolerations?: Toleration[];
  hostNetwork?: boolean;
}

export interface PlacementNode extends KObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] };
}
