/**
 * Node placement rules shared by the scheduler and the DaemonSet controllers: node affinity,
 * taints and tolerations, daemon pod placement. Pure functions over pod and node JSON.
 */
export * from './types.js';
export * from './node-affinity.js';
export * from './taints.js';
export * from './daemon-pods.js';
