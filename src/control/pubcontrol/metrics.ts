/**
 * `pod_unavailable_budget{kind_namespace_name, username}`: operations a PUB refused
 * (docs/design/podunavailablebudget.md §4). Module-level like the deletion-protection counters;
 * the manager adds it to its `/metrics` registry.
 */
import { Counter, Registry } from 'prom-client';

export class PubMetrics {
  readonly registry = new Registry();
  readonly refused = new Counter({
    name: 'pod_unavailable_budget', help: 'Pod operations refused by a PodUnavailableBudget', labelNames: ['kind_namespace_name', 'username'], registers: [this.registry],
  });

  registerOn(registry: Registry): void {
    if (!registry.getSingleMetric('pod_unavailable_budget')) registry.registerMetric(this.refused);
  }
}

export const pubMetrics = new PubMetrics();
