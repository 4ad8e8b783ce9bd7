/**
 * The in-memory state: key -> stored object, a sorted key index for prefix lists, and the running
 * size of the encoded objects. Stored objects are immutable and are handed out as they are.
 */
import type { KObject } from '../../api/meta.js';
import type { StoredObject } from './store.js';
import { SortedKeys } from './sorted-keys.js';

/** One key's slot, shared by the map and the sorted index; replaced values update it in place. */
interface Entry {
  readonly key: string;
  stored: StoredObject;
  bytes: number;
}

export interface ListOptions {
  startAfter?: string;
  limit?: number;
  filter?: (o: KObject) => boolean;
}

export class Keyspace {
  private entries = new Map<string, Entry>();
  private sorted = new SortedKeys<Entry>();
  private totalBytes = 0;

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): StoredObject | undefined {
    return this.entries.get(key)?.stored;
  }

  set(stored: StoredObject, bytes: number): void {
    const entry = this.entries.get(stored.key);
    this.totalBytes += bytes - (entry?.bytes ?? 0);
    if (entry) {
      entry.stored = stored;
      entry.bytes = bytes;
      return;
    }
    const added: Entry = { key: stored.key, stored, bytes };
    this.entries.set(stored.key, added);
    this.sorted.add(added);
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.sorted.delete(key);
    this.totalBytes -= old.bytes;
  }

  /** A function that puts `key` back the way it is now (to roll back a write that failed to persist). */
  undoFor(key: string): () => void {
    const entry = this.entries.get(key);
    if (!entry) return () => this.delete(key);
    const { stored, bytes } = entry;
    return () => this.set(stored, bytes);
  }

  /** Every stored object, in no particular order (for snapshots). */
  all(): StoredObject[] {
    return Array.from(this.entries.values(), (e) => e.stored);
  }

  /**
   * Objects under `prefix` in key order, after `startAfter`, passing `filter`, at most `limit`;
   * `remaining` counts the matching objects left after the last one returned.
   */
  list(prefix: string, options: ListOptions = {}): { items: StoredObject[]; remaining: number } {
    const { startAfter, limit = Infinity, filter } = options;
    const items: StoredObject[] = [];
    let remaining = 0;
    const resume = startAfter !== undefined && startAfter >= prefix;
    this.sorted.scan(resume ? startAfter : prefix, resume, (entry) => {
      if (!entry.key.startsWith(prefix)) return false;
      const stored = entry.stored;
      if (filter && !filter(stored.object)) return true;
      if (items.length < limit) items.push(stored);
      else remaining++;
      return true;
    });
    return { items, remaining };
  }
}
