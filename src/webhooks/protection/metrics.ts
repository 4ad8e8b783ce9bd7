/**
 * Counters of blocked deletions (docs/design/manager.md §5). The admission handlers are module-level
 * objects, so the counters live in a registry of their own here; the manager adds them to its
 * `/metrics` registry with `registerOn`.
 */
import { Counter, Registry } from 'prom-client';

export class DeletionProtectionMetrics {
  readonly registry = new Registry();
  readonly namespaceDeletion = new Counter({
    name: 'namespace_deletion_protection', help: 'Namespace deletions blocked by deletion protection', labelNames: ['name', 'username'], registers: [this.registry],
  });
  readonly crdDeletion = new Counter({
    name: 'crd_deletion_protection', help: 'CustomResourceDefinition deletions blocked by deletion protection', labelNames: ['name', 'username'], registers: [this.registry],
  });
  readonly workloadDeletion = new Counter({
    name: 'workload_deletion_protection', help: 'Workload deletions blocked by deletion protection', labelNames: ['kind_namespace_name', 'username'], registers: [this.registry],
  });

  /** Adds the three counters to `registry` (a no-op for names it already holds). */
  registerOn(registry: Registry): void {
    for (const metric of [this.namespaceDeletion, this.crdDeletion, this.workloadDeletion]) {
      const name = (metric as unknown as { name: string }).name; // prom-client's typings omit the field
      if (!registry.getSingleMetric(name)) registry.registerMetric(metric);
    }
  }
}

/** The counters the protection handlers increment. */
export const deletionProtectionMetrics = new DeletionProtectionMetrics();
