/**
 * Pod lifecycle hooks shared by CloneSet, Advanced StatefulSet, Advanced DaemonSet (docs/design/inplace-update.md §9):
 * state label and hooks, the transition table, and KruisePodReady not-ready keys.
 */
export * from './hooks.js';
export * from './readiness.js';
export * from './readiness-write.js';
export * from './transitions.js';
