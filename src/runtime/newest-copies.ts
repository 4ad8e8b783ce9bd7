/**
 * The copy of each object a controller last wrote, kept until the informer shows that version
 * or a newer one. A status computed in the pass right after a write is compared with, and written
 * over, whichever copy is newer: the same status is not written twice, and a write never carries
 * the resourceVersion the previous write already replaced (a sure 409).
 */
import type { KObject } from '../api/meta.js';

/** a is newer than b; resourceVersions that are not decimal counters are never judged newer. */
function newer(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) > BigInt(b);
}

const keyOf = (o: KObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export class NewestCopies<T extends KObject> {
  private readonly written = new Map<string, T>();

  /** Remembers what the server returned for a write. */
  note(obj: T): void {
    this.written.set(keyOf(obj), obj);
  }

  /**
   * The written copy when it is the same object and newer than `cached` (the informer's copy); else
   * `cached`, and the written copy is dropped: the cache has caught up, or the object was replaced.
   */
  newest(cached: T): T {
    const key = keyOf(cached);
    const mine = this.written.get(key);
    if (mine === cached) return mine;
    if (mine && mine.metadata.uid === cached.metadata.uid && newer(mine.metadata.resourceVersion, cached.metadata.resourceVersion)) return mine;
    this.written.delete(key);
    return cached;
  }

  forget(namespace: string | undefined, name: string): void {
    this.written.delete(`${namespace ?? ''}/${name}`);
  }
}
