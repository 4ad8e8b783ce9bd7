/**
 * Namespace lifecycle: a namespace being deleted is marked Terminating, every namespaced object in
 * it is deleted (finalizers and pod grace honoured, so it may take several passes), and once it is
 * empty the `kubernetes` finalizer is released and the namespace goes away.
 */
import type { KObject } from '../../api/meta.js';
import type { Registry } from '../registry/registry.js';
import { systemContext } from '../registry/context.js';
import { timestamp } from '../registry/core.js';
import type { ServedResource } from '../registry/served-resource.js';
import { KeyQueue } from './key-queue.js';

const prefix = '/core/namespaces/';

export class NamespaceController {
  private handle?: { stop(): void };
  private readonly queue = new KeyQueue((name) => this.sync(name));

  constructor(private readonly registry: Registry) {}

  start(): void {
    const list = this.registry.store.list(prefix);
    for (const item of list.items) if (item.object.metadata.deletionTimestamp) this.queue.add(item.object.metadata.name!);
    this.handle = this.registry.store.watch(prefix, list.rv, (e) => {
      if (e.type !== 'DELETED' && e.object.metadata.deletionTimestamp) this.queue.add(e.object.metadata.name!);
    });
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.queue.stop();
  }

  private get namespaces(): ServedResource {
    return this.registry.table.lookup('', 'v1', 'namespaces')!;
  }

  /** One pass; returns a retry delay while content remains. */
  private async sync(name: string): Promise<number | void> {
    const stored = this.registry.store.get(`${prefix}${name}`);
    if (!stored || !stored.object.metadata.deletionTimestamp) return;
    const remaining = await this.deleteContent(name);
    await this.setConditions(stored.object, remaining);
    if (remaining > 0) return 500;
    const spec = (stored.object.spec ?? {}) as { finalizers?: string[] };
    const finalizers = (spec.finalizers ?? []).filter((f) => f !== 'kubernetes');
    await this.registry.finalizeNamespace(this.namespaces, name, { metadata: { name }, spec: { finalizers } });
  }

  private async deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    const seen = new Set<string>();
    for (const r of this.registry.table.all()) {
      if (!r.definition.namespaced || seen.has(r.storagePrefix)) continue;
      seen.add(r.storagePrefix);
      const items = this.registry.store.list(`${r.storagePrefix}/${namespace}/`).items;
      remaining += items.length;
      for (const item of items) {
        if (item.object.metadata.deletionTimestamp) continue;
        await this.registry.delete(r, namespace, item.object.metadata.name!, { propagationPolicy: 'Background' }, systemContext()).catch(() => undefined);
      }
    }
    return remaining;
  }

  private async setConditions(ns: KObject, remaining: number): Promise<void> {
    const status = (ns.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[] };
    const wanted = remaining > 0 ? 'True' : 'False';
    const current = status.conditions?.find((c) => c.type === 'NamespaceContentRemaining')?.status;
    if (status.phase === 'Terminating' && current === wanted) return;
    const now = timestamp(new Date());
    const conditions = [
      { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered', lastTransitionTime: now },
      { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization', lastTransitionTime: now },
      { type: 'NamespaceContentRemaining', status: wanted, reason: remaining > 0 ? 'SomeResourcesRemain' : 'ContentRemoved', message: remaining > 0 ? `Some resources are remaining: ${remaining} objects` : 'All content successfully removed', lastTransitionTime: now },
    ];
    await this.registry.patch(this.namespaces, undefined, ns.metadata.name!, { type: 'merge', patch: { status: { phase: 'Terminating', conditions } }, subresource: 'status' }, systemContext()).catch(() => undefined);
  }
}
