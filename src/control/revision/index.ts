/**
 * ControllerRevision history shared by CloneSet, Advanced StatefulSet and Advanced DaemonSet
 * (workloads.md §1.5): building, comparing, planning, syncing and trimming revisions.
 */
export * from './types.js';
export * from './new-revision.js';
export * from './equality.js';
export * from './history.js';
export * from './sync.js';
export * from './template-history.js';
