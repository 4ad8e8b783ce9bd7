/** Shared in-place update engine for CloneSet, Advanced StatefulSet and Advanced DaemonSet (docs/design/inplace-update.md §1). */
export * from './types.js';
export * from './state.js';
export * from './calculate-spec.js';
export * from './resources.js';
export * from './patch-pod.js';
export * from './conditions.js';
export * from './completion.js';
export * from './refresh.js';
export * from './updater.js';
