/**
 * ControllerRevision history shared by CloneSet, Advanced StatefulSet and Advanced DaemonSet
 * (docs/design/workload-common.md §3): building, comparing, planning, syncing and trimming revisions.
 */
export * from './types.js';
export * from './new-revision.js';
export * from './equality.js';
export * from './history.js';
export * from './sync.js';
export * from './template-history.js';
