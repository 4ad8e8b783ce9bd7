/**
 * Garbage collector for ownerReferences: dependents whose owners are all gone are deleted
 * (background), owners deleted in the foreground wait for their blocking dependents, and
 * orphaning owners strip themselves from their dependents before releasing the `orphan` finalizer.
 * It follows every stored object through one store watch and acts through the registry.
 */
import type { KObject } from '../../api/meta.js';
import type { Registry } from '../registry/registry.js';
import { systemContext } from '../registry/context.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { RegistryReader, StoredEvent, WatchHandle } from '../registry/reader.js';
import { OwnerGraph } from './owner-graph.js';
import { QueueWorker } from './queue-worker.js';

export class GarbageCollector {
  private readonly graph = new OwnerGraph();
  /** Keys are the store-wide watch's keys of objects. */
  private readonly worker = new QueueWorker('garbage-collector', (key) => this.sync(key));
  private handle?: WatchHandle;

  constructor(private readonly registry: Registry, private readonly reader: RegistryReader) {}

  start(): void {
    const list = this.reader.listEverything();
    for (const item of list.items) this.graph.set(item.key, item.object);
    for (const item of list.items) this.worker.add(item.key);
    this.handle = this.reader.watchEverything(list.rv, (e) => this.observe(e));
    this.worker.start();
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.worker.stop();
  }

  private observe(e: StoredEvent): void {
    if (e.type === 'DELETED') {
      this.graph.remove(e.key);
      for (const dep of this.graph.dependentsOf(e.object.metadata.uid ?? '')) this.worker.add(dep);
    } else {
      this.graph.set(e.key, e.object);
      this.worker.add(e.key);
    }
    // an owner finishing its own deletion may release dependents waiting for it
    for (const ref of e.object.metadata.ownerReferences ?? []) {
      const owner = this.graph.keyOf(ref.uid);
      if (owner) this.worker.add(owner);
    }
  }

  /** The current stored object behind an indexed key, with its resource, while it is stored and served. */
  private load(key: string): { r: ServedResource; obj: KObject } | undefined {
    const node = this.graph.node(key);
    const r = this.reader.resourceOfKey(key);
    const obj = node && r && this.reader.getStored(r, node.namespace, node.name);
    return obj ? { r: r!, obj } : undefined;
  }

  private async sync(key: string): Promise<number | void> {
    const current = this.load(key);
    if (!current) return;
    const { r, obj } = current;
    const m = obj.metadata;
    const node = this.graph.node(key)!;
    if (m.deletionTimestamp && m.finalizers?.includes('orphan')) return this.orphanDependents(r, obj);
    if (m.deletionTimestamp && m.finalizers?.includes('foregroundDeletion')) return this.deleteForeground(r, obj);
    if (node.owners.length === 0 || m.deletionTimestamp) return;
    const alive = node.owners.filter((ref) => this.graph.ownerAlive(ref, node));
    if (alive.length === node.owners.length) {
      const waitingOwner = node.owners.some((ref) => this.isForegroundDeleting(ref.uid));
      if (!waitingOwner) return;
    }
    if (alive.length === 0 || alive.every((ref) => this.isForegroundDeleting(ref.uid))) {
      const foreground = alive.length > 0;
      await this.registry.delete(r, m.namespace, m.name!, { propagationPolicy: foreground ? 'Foreground' : 'Background', preconditions: { uid: m.uid } }, systemContext('system:serviceaccount:kube-system:generic-garbage-collector')).catch(ignoreGone);
      return;
    }
    if (alive.length < node.owners.length) {
      await this.registry.patch(r, m.namespace, m.name!, { type: 'merge', patch: { metadata: { ownerReferences: alive, resourceVersion: m.resourceVersion } } }, systemContext()).catch(ignoreGone);
    }
  }

  private isForegroundDeleting(uid: string): boolean {
    const owner = this.graph.keyOf(uid);
    const obj = owner === undefined ? undefined : this.load(owner)?.obj;
    return !!obj?.metadata.deletionTimestamp && !!obj.metadata.finalizers?.includes('foregroundDeletion');
  }

  private async orphanDependents(r: ServedResource, owner: KObject): Promise<void> {
    const uid = owner.metadata.uid!;
    for (const depKey of this.graph.dependentsOf(uid)) {
      const dep = this.load(depKey);
      if (!dep) continue;
      const refs = (dep.obj.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== uid);
      await this.registry.patch(dep.r, dep.obj.metadata.namespace, dep.obj.metadata.name!, { type: 'merge', patch: { metadata: { ownerReferences: refs.length ? refs : null } } }, systemContext()).catch(ignoreGone);
    }
    await this.removeFinalizer(r, owner, 'orphan');
  }

  private async deleteForeground(r: ServedResource, owner: KObject): Promise<number | void> {
    const uid = owner.metadata.uid!;
    let blocking = 0;
    for (const depKey of this.graph.dependentsOf(uid)) {
      const dep = this.load(depKey);
      if (!dep) continue;
      const ref = dep.obj.metadata.ownerReferences?.find((o) => o.uid === uid);
      if (ref?.blockOwnerDeletion) blocking++;
      if (!dep.obj.metadata.deletionTimestamp) {
        await this.registry.delete(dep.r, dep.obj.metadata.namespace, dep.obj.metadata.name!, { propagationPolicy: 'Foreground' }, systemContext()).catch(ignoreGone);
      }
    }
    if (blocking > 0) return 1000;
    await this.removeFinalizer(r, owner, 'foregroundDeletion');
  }

  private async removeFinalizer(r: ServedResource, obj: KObject, finalizer: string): Promise<void> {
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    await this.registry.patch(r, obj.metadata.namespace, obj.metadata.name!, { type: 'merge', patch: { metadata: { finalizers: finalizers.length ? finalizers : null, resourceVersion: obj.metadata.resourceVersion } } }, systemContext()).catch(ignoreGone);
  }
}

function ignoreGone(e: unknown): void {
  const code = (e as { code?: number }).code;
  if (code !== 404 && code !== 409) throw e;
}
