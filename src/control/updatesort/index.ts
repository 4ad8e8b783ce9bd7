/**
 * Pod ordering shared by the Kruise workloads: which pods to update first (priority, scatter,
 * ActivePods) and which to delete first on CloneSet scale-in. Pure functions over pod JSON.
 */
export * from './pod-facts.js';
export * from './active-pods.js';
export * from './priority.js';
export * from './scatter.js';
export * from './update-order.js';
export * from './spread-rank.js';
export * from './delete-order.js';
