/**
 * The garbage collector's view of ownership: every stored object by key and by uid, and each
 * owner uid's dependents, kept in step with the store-wide watch. Keys are the watch's names for
 * objects; the graph never builds one.
 */
import type { KObject, OwnerReference } from '../../api/meta.js';

/** One stored object as the graph holds it. */
export interface OwnerNode { key: string; uid: string; namespace?: string; name: string; owners: OwnerReference[] }

export class OwnerGraph {
  private readonly byKey = new Map<string, OwnerNode>();
  private readonly byUid = new Map<string, OwnerNode>();
  /** Owner uid -> keys of its dependents. */
  private readonly dependents = new Map<string, Set<string>>();

  node(key: string): OwnerNode | undefined {
    return this.byKey.get(key);
  }

  /** Key of the object with `uid`, if it is stored. */
  keyOf(uid: string): string | undefined {
    return this.byUid.get(uid)?.key;
  }

  /** Keys of the objects naming `uid` as an owner (a copy: syncing may change the graph). */
  dependentsOf(uid: string): string[] {
    return [...(this.dependents.get(uid) ?? [])];
  }

  set(key: string, obj: KObject): void {
    this.remove(key);
    const m = obj.metadata;
    const node: OwnerNode = { key, uid: m.uid ?? '', namespace: m.namespace, name: m.name ?? '', owners: m.ownerReferences ?? [] };
    this.byKey.set(key, node);
    this.byUid.set(node.uid, node);
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid) ?? new Set<string>();
      set.add(key);
      this.dependents.set(ref.uid, set);
    }
  }

  remove(key: string): void {
    const node = this.byKey.get(key);
    if (!node) return;
    this.byKey.delete(key);
    if (this.byUid.get(node.uid) === node) this.byUid.delete(node.uid);
    for (const ref of node.owners) this.dependents.get(ref.uid)?.delete(key);
  }

  /** An owner exists when an object with its uid lives in the dependent's namespace or cluster-wide. */
  ownerAlive(ref: OwnerReference, dependent: OwnerNode): boolean {
    const owner = this.byUid.get(ref.uid);
    if (!owner) return false;
    return owner.namespace === undefined || owner.namespace === dependent.namespace;
  }
}
