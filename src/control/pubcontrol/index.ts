/** PodUnavailableBudget logic shared by the pod webhook, the PUB controller and the Kruise workloads (docs/design/podunavailablebudget.md). */
export * from './pod-state.js';
export * from './budget.js';
export * from './check.js';
export * from './metrics.js';
export { withPubLock, writtenPubs, conflictRetry, retryDelay } from './status-lock.js';
export * from './workload-check.js';
