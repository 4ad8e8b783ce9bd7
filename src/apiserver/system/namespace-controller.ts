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
import type { RegistryReader, WatchHandle } from '../registry/reader.js';
import { QueueWorker } from './queue-worker.js';
import { deletionConditions, mergeConditions, type ContentLeft } from './namespace-conditions.js';

export class NamespaceController {
  private handle?: WatchHandle;
  /** Keys are names of namespaces being deleted. */
  private readonly worker = new QueueWorker('namespace-controller', (name) => this.sync(name));

  constructor(private readonly registry: Registry, private readonly reader: RegistryReader) {}

  start(): void {
    const list = this.reader.listStored(this.namespaces);
    for (const ns of list.items) if (ns.metadata.deletionTimestamp) this.worker.add(ns.metadata.name!);
    this.handle = this.reader.watchStored(this.namespaces, undefined, list.rv, (e) => {
      if (e.type !== 'DELETED' && e.object.metadata.deletionTimestamp) this.worker.add(e.object.metadata.name!);
    });
    this.worker.start();
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.worker.stop();
  }

  private get namespaces(): ServedResource {
    return this.registry.table.lookup('', 'v1', 'namespaces')!;
  }

  /** One pass; returns a retry delay while content remains. */
  private async sync(name: string): Promise<number | void> {
    const stored = this.reader.getStored(this.namespaces, undefined, name);
    if (!stored || !stored.metadata.deletionTimestamp) return;
    const left = await this.deleteContent(name);
    await this.setConditions(stored, left);
    if (left.byResource.size > 0) return 500;
    const spec = (stored.spec ?? {}) as { finalizers?: string[] };
    const finalizers = (spec.finalizers ?? []).filter((f) => f !== 'kubernetes');
    // Through the finalize subresource, as kube's namespace controller releases its finalizer.
    const body = { metadata: { name }, spec: { finalizers } };
    await this.registry.callSubresource(this.namespaces, 'finalize', undefined, name, systemContext(), { verb: 'update', body });
  }

  /**
   * Deletes what is not yet being deleted, then counts what is still there, per served
   * `resource.group` (as discovery lists them, so events count under both their groups) and per
   * finalizer on those objects.
   */
  private async deleteContent(namespace: string): Promise<ContentLeft> {
    const resources = new Map<string, ServedResource>();
    for (const r of this.registry.table.all()) {
      if (r.definition.namespaced) resources.set(`${r.definition.plural}.${r.definition.group}`, r);
    }
    const deleted = new Set<string>();
    for (const r of resources.values()) {
      if (deleted.has(r.storagePrefix)) continue;
      deleted.add(r.storagePrefix);
      for (const item of this.reader.listStored(r, namespace).items) {
        if (item.metadata.deletionTimestamp) continue;
        await this.registry.delete(r, namespace, item.metadata.name!, { propagationPolicy: 'Background' }, systemContext()).catch(() => undefined);
      }
    }
    const left: ContentLeft = { byResource: new Map(), byFinalizer: new Map() };
    for (const [key, r] of resources) {
      const items = this.reader.listStored(r, namespace).items;
      if (items.length > 0) left.byResource.set(key, items.length);
      for (const item of items) {
        for (const f of item.metadata.finalizers ?? []) left.byFinalizer.set(f, (left.byFinalizer.get(f) ?? 0) + 1);
      }
    }
    return left;
  }

  private async setConditions(ns: KObject, left: ContentLeft): Promise<void> {
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    const conditions = mergeConditions(ns, deletionConditions(left), timestamp(new Date()));
    if (phase === 'Terminating' && !conditions) return;
    const patch = { status: { phase: 'Terminating', ...(conditions ? { conditions } : {}) } };
    await this.registry.patch(this.namespaces, undefined, ns.metadata.name!, { type: 'merge', patch, subresource: 'status' }, systemContext()).catch(() => undefined);
  }
}
