/**
 * Garbage collector for ownerReferences: dependents whose owners are all gone are deleted
 * (background), owners deleted in the foreground wait for their blocking dependents, and
 * orphaning owners strip themselves from their dependents before releasing the `orphan` finalizer.
 * It follows every stored object through one store watch and acts through the registry.
 */
import type { KObject, OwnerReference } from '../../api/meta.js';
import type { Registry } from '../registry/registry.js';
import { systemContext } from '../registry/context.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { StoreEvent } from '../storage/store.js';
import { KeyQueue } from './key-queue.js';

interface Node { key: string; uid: string; namespace?: string; owners: OwnerReference[] }

export class GarbageCollector {
  private readonly byUid = new Map<string, Node>();
  private readonly dependents = new Map<string, Set<string>>(); // owner uid -> dependent keys
  private readonly byKey = new Map<string, Node>();
  private readonly queue = new KeyQueue((key) => this.sync(key));
  private handle?: { stop(): void };

  constructor(private readonly registry: Registry) {}

  start(): void {
    const list = this.registry.store.list('/');
    for (const item of list.items) this.index(item.key, item.object);
    for (const item of list.items) this.queue.add(item.key);
    this.handle = this.registry.store.watch('/', list.rv, (e) => this.observe(e));
  }

  async stop(): Promise<void> {
    this.handle?.stop();
    await this.queue.stop();
  }

  private observe(e: StoreEvent): void {
    if (e.type === 'DELETED') {
      this.unindex(e.key);
      for (const dep of this.dependents.get(e.object.metadata.uid ?? '') ?? []) this.queue.add(dep);
      for (const ref of e.object.metadata.ownerReferences ?? []) {
        const owner = this.byUid.get(ref.uid);
        if (owner) this.queue.add(owner.key);
      }
      return;
    }
    this.index(e.key, e.object);
    this.queue.add(e.key);
    // an owner finishing its own deletion may release dependents waiting for it
    for (const ref of e.object.metadata.ownerReferences ?? []) {
      const owner = this.byUid.get(ref.uid);
      if (owner) this.queue.add(owner.key);
    }
  }

  private index(key: string, obj: KObject): void {
    this.unindex(key);
    const node: Node = { key, uid: obj.metadata.uid ?? '', namespace: obj.metadata.namespace, owners: obj.metadata.ownerReferences ?? [] };
    this.byKey.set(key, node);
    this.byUid.set(node.uid, node);
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid) ?? new Set<string>();
      set.add(key);
      this.dependents.set(ref.uid, set);
    }
  }

  private unindex(key: string): void {
    const node = this.byKey.get(key);
    if (!node) return;
    this.byKey.delete(key);
    if (this.byUid.get(node.uid) === node) this.byUid.delete(node.uid);
    for (const ref of node.owners) this.dependents.get(ref.uid)?.delete(key);
  }

  /** An owner exists when an object with its uid lives in the dependent's namespace or cluster-wide. */
  private ownerAlive(ref: OwnerReference, dependent: Node): boolean {
    const owner = this.byUid.get(ref.uid);
    if (!owner) return false;
    return owner.namespace === undefined || owner.namespace === dependent.namespace;
  }

  private resourceFor(key: string): ServedResource | undefined {
    return this.registry.table.all().find((r) => key.startsWith(`${r.storagePrefix}/`));
  }

  private async sync(key: string): Promise<number | void> {
    const stored = this.registry.store.get(key);
    const r = this.resourceFor(key);
    if (!stored || !r) return;
    const obj = stored.object;
    const m = obj.metadata;
    const node = this.byKey.get(key)!;
    if (m.deletionTimestamp && m.finalizers?.includes('orphan')) return this.orphanDependents(r, obj);
    if (m.deletionTimestamp && m.finalizers?.includes('foregroundDeletion')) return this.deleteForeground(r, obj);
    if (node.owners.length === 0 || m.deletionTimestamp) return;
    const alive = node.owners.filter((ref) => this.ownerAlive(ref, node));
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
    const owner = this.byUid.get(uid);
    const obj = owner && this.registry.store.get(owner.key)?.object;
    return !!obj?.metadata.deletionTimestamp && !!obj.metadata.finalizers?.includes('foregroundDeletion');
  }

  private async orphanDependents(r: ServedResource, owner: KObject): Promise<void> {
    const uid = owner.metadata.uid!;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.registry.store.get(depKey);
      const dr = this.resourceFor(depKey);
      if (!dep || !dr) continue;
      const refs = (dep.object.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== uid);
      await this.registry.patch(dr, dep.object.metadata.namespace, dep.object.metadata.name!, { type: 'merge', patch: { metadata: { ownerReferences: refs.length ? refs : null } } }, systemContext()).catch(ignoreGone);
    }
    await this.removeFinalizer(r, owner, 'orphan');
  }

  private async deleteForeground(r: ServedResource, owner: KObject): Promise<number | void> {
    const uid = owner.metadata.uid!;
    let blocking = 0;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const dep = this.registry.store.get(depKey);
      const dr = this.resourceFor(depKey);
      if (!dep || !dr) continue;
      const ref = dep.object.metadata.ownerReferences?.find((o) => o.uid === uid);
      if (ref?.blockOwnerDeletion) blocking++;
      if (!dep.object.metadata.deletionTimestamp) {
        await this.registry.delete(dr, dep.object.metadata.namespace, dep.object.metadata.name!, { propagationPolicy: 'Foreground' }, systemContext()).catch(ignoreGone);
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
