/** Simulated kubelets (KWOK-style nodes with a fake CRI runtime each). */
export { createSimulatedNodes, type SimulatedNodes } from './simulated-nodes.js';
export type { SimulatedNodesOptions } from './options.js';
export type { ReadinessPolicy } from './readiness.js';
export type { NodeCapacity } from './node-object.js';
export { SimulateAnnotations } from './simulate-annotations.js';
export { parseNodeBehaviour, NodeBehaviourError, type NodeBehaviour } from './behaviour/behaviour-file.js';
export { HookAnnotations, ProbeAnnotations } from './script-annotations.js';
