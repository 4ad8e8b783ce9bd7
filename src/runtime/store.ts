/**
 * An informer's cache: objects keyed `namespace/name` (or `name` when cluster-scoped), plus named
 * indexes (client-go's Indexer). Objects handed out are the cached instances themselves: callers
 * must never mutate them; clone first (`clone` in machinery/deep-equal). With `freeze` on, objects
 * are deep-frozen when stored, so a mutation throws in strict mode (tests turn it on).
 */
import type { KObject } from '../api/meta.js';
import { deepFreeze } from '../machinery/deep-freeze.js';

export type IndexFunc<T> = (obj: T) => string[];

export function objectKey(obj: KObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : `${name}`;
}

export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class Store<T extends KObject = KObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name -> index value -> keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly freeze = false) {}

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  getByName(namespace: string | undefined, name: string): T | undefined {
    return this.items.get(keyOf(namespace, name));
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  size(): number {
    return this.items.size;
  }

  /** Adds an index; existing objects are indexed at once, so it may be added after sync. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`indexer ${JSON.stringify(name)} already exists`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, obj] of this.items) this.indexOne(name, key, obj);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no indexer named ${JSON.stringify(name)}`);
    return [...(index.get(value) ?? [])].map((key) => this.items.get(key)!);
  }

  /** Stores `obj`; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    if (this.freeze) deepFreeze(obj);
    this.items.set(key, obj);
    for (const name of this.indexers.keys()) this.indexOne(name, key, obj);
    return old;
  }

  /** Removes the object under `key`; returns it. */
  remove(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  private indexOne(name: string, key: string, obj: T): void {
    const index = this.indices.get(name)!;
    for (const value of this.indexers.get(name)!(obj)) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}
