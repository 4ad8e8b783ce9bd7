/** WorkloadSpread logic shared by its pod webhooks and its controller (docs/design/workloadspread.md). */
export * from './keys.js';
export * from './subsets.js';
export * from './workload.js';
export * from './inject.js';
export * from './choose-subset.js';
export { SpreadStatusWriter, type StatusChange } from './status-writer.js';
