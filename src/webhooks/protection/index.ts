/**
 * Deletion protection (docs/design/webhooks.md §12): validating handlers for Namespace, CRD, the apps/v1
 * workloads, Service and Ingress, the check the Kruise workload webhooks call on DELETE, and the
 * metrics and protection log they write.
 */
import type { Registry } from 'prom-client';
import { deletionProtectionMetrics } from './metrics.js';
import { protectionLog } from './protection-log.js';

export { checkWorkloadDeletion, deploymentProtectionWebhooks, replicaSetProtectionWebhooks, statefulSetProtectionWebhooks } from './workload.js';
export { namespaceProtectionWebhooks } from './namespace.js';
export { crdProtectionWebhooks, storageResourceOf } from './crd.js';
export { ingressProtectionWebhooks, serviceProtectionWebhooks } from './service-ingress.js';
export { DeletionProtectionMetrics, deletionProtectionMetrics } from './metrics.js';
export { ProtectionLog, protectionLog, type ProtectionEvent, type ProtectionLogEntry } from './protection-log.js';
export { messages as deletionProtectionMessages } from './rules.js';

export interface DeletionProtectionOptions {
  /** The manager's metrics registry, to serve the protection counters on `/metrics`. */
  registry?: Registry;
  /** `--protection-log-path`: directory of `protection.log`; undefined leaves the log off. */
  logDir?: string;
}

/** Wires the shared metrics and protection log to the manager's registry and log directory. */
export function configureDeletionProtection(options: DeletionProtectionOptions): void {
  if (options.registry) deletionProtectionMetrics.registerOn(options.registry);
  protectionLog.configure(options.logDir);
}
