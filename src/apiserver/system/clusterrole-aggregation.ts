/**
 * ClusterRole aggregation, kube-controller-manager's clusterrole-aggregation controller
 * (docs/design/authorization.md §9): a ClusterRole with an `aggregationRule` gets as `rules` the
 * rules of every other ClusterRole its label selectors match, in name order, each rule once. Any
 * ClusterRole change requeues every aggregated role, as kube does. It runs in the API server,
 * like the garbage collector, so `admin`, `edit` and `view` work without the cluster controllers.
 */
import type { KObject } from '../../api/meta.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { systemContext } from '../registry/context.js';
import type { RegistryReader, WatchHandle } from '../registry/reader.js';
import type { Registry } from '../registry/registry.js';
import type { ServedResource } from '../registry/served-resource.js';
import { QueueWorker } from './queue-worker.js';

interface AggregationRule { clusterRoleSelectors?: MetaLabelSelector[] }

export class ClusterRoleAggregator {
  private handle?: WatchHandle;
  private readonly worker = new QueueWorker('clusterrole-aggregation', (name) => this.sync(name));

  constructor(private readonly registry: Registry, private readonly reader: RegistryReader) {}

  private get clusterRoles(): ServedResource {
    return this.registry.table.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
  }

  /** Aggregates every role once before returning (the server is ready with admin/edit/view filled), then follows changes. */
  async start(): Promise<void> {
    const list = this.reader.listStored(this.clusterRoles);
    // Watch from the list at once: the syncs below write, and a small history would expire a later watch.
    this.handle = this.reader.watchStored(this.clusterRoles, undefined, list.rv, () => this.enqueueAggregated());
    for (const role of list.items) if (role.aggregationRule) await this.sync(role.metadata.name!);
    this.worker.start();
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.worker.stop();
  }

  private enqueueAggregated(): void {
    for (const role of this.reader.listStored(this.clusterRoles).items) if (role.aggregationRule) this.worker.add(role.metadata.name!);
  }

  private async sync(name: string): Promise<void> {
    const role = this.reader.getStored(this.clusterRoles, undefined, name);
    const rule = role?.aggregationRule as AggregationRule | undefined;
    if (!role || !rule) return;
    const rules = aggregatedRules(name, rule, this.reader.listStored(this.clusterRoles).items);
    if (sameRuleSet(rules, (role.rules as unknown[] | undefined) ?? [])) return; // kube compares as sets: an order change is no change
    await this.registry.patch(this.clusterRoles, undefined, name, { type: 'merge', patch: { rules } }, systemContext('system:kube-controller-manager'))
      .catch((err: { code?: number }) => { if (err?.code !== 404) throw err; });
  }
}

function sameRuleSet(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((rule) => b.some((other) => deepEqual(rule, other)));
}

/** The rules of the roles each selector matches (sorted by name, the role itself left out), without repeats. */
export function aggregatedRules(self: string, rule: AggregationRule, roles: KObject[]): unknown[] {
  const rules: unknown[] = [];
  for (const selector of rule.clusterRoleSelectors ?? []) {
    const matcher = selectorFromLabelSelector(selector);
    const matching = roles.filter((r) => r.metadata.name !== self && matcher.matches(r.metadata.labels ?? {}));
    matching.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    for (const role of matching) {
      for (const r of (role.rules as unknown[] | undefined) ?? []) if (!rules.some((known) => deepEqual(known, r))) rules.push(r);
    }
  }
  return rules;
}
