/**
 * The parts of core/v1 Pod and Node that node placement reads (node affinity, taints and
 * tolerations). Shared by the scheduler and the DaemonSet controllers; the kinds are api/core's.
 */
import type { NodeSelectorRequirement, PodSpec } from '../../api/core/index.js';

export type { NodeAffinity, NodeSelectorRequirement, NodeSelectorTerm, Taint, TaintEffect, Toleration } from '../../api/core/index.js';
export type NodeSelectorOperator = NodeSelectorRequirement['operator'];

/** The pod spec fields placement depends on (templates and pods alike). */
export type PlacementPodSpec = Pick<PodSpec, 'nodeName' | 'nodeSelector' | 'affinity' | 'tolerations' | 'hostNetwork'>;
