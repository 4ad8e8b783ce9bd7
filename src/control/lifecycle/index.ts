/**
 * Pod lifecycle hooks shared by CloneSet, Advanced StatefulSet, Advanced DaemonSet (workloads.md §3):
 * state label and hooks, the transition table, and KruisePodReady not-ready keys.
 */
export * from './hooks.js';
export * from './readiness.js';
export * from './transitions.js';
