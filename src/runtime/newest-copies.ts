/**
 * The copy of each object a controller last wrote, kept until the informer shows that version
 * or a newer one. A status computed in the pass right after a write is compared with, and written
 * over, whichever copy is newer: the same status is not written twice, and a write never carries
 * the resourceVersion the previous write already replaced (a sure 409).
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { isConflict, isNotFound } from '../machinery/errors.js';

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

  /**
   * Writes `status` over the newest copy of `cached` through the status subresource when `changed`
   * says it differs from that copy's, and remembers what the server returned. A conflict is not
   * retried: the object changed, and its event brings a pass that computes status afresh; an
   * object that is gone is left alone. False after a conflict (the caller requeues).
   */
  async writeStatus<S>(client: Client, type: ResourceType, cached: T, status: S, changed: (old: S | undefined, next: S) => boolean): Promise<boolean> {
    const base = this.newest(cached);
    if (!changed((base as { status?: S }).status, status)) return true;
    try {
      this.note(await client.updateStatus<T>(type, { ...base, status }));
    } catch (e) {
      if (isConflict(e)) return false;
      if (!isNotFound(e)) throw e;
    }
    return true;
  }
}
