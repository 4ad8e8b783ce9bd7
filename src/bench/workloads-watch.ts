/**
 * Milestones read straight from the API server's store: a watch on a key prefix keeps the latest
 * objects (shared, never mutated) and, per waiter, the set of keys matching its predicate, updated
 * on each event for that key only, so a check costs O(1) per event whatever the pod count (the
 * benchmark must not eat the CPU of the plane it measures). `until` resolves with the
 * performance.now() of the event that made the milestone hold.
 */
import type { KObject } from '../api/meta.js';
import type { Store, WatchHandle } from '../apiserver/storage/store.js';

export interface Condition {
  /** Does this object count towards the milestone. */
  match(o: KObject): boolean;
  /** Holds once at least `count` kept objects match ... */
  count: number;
  /** ... and exactly `count` objects are kept in all (e.g. no terminating pod left). */
  exact?: boolean;
}

interface Waiter extends Condition {
  matching: Set<string>;
  resolve(at: number): void;
}

type Listener = (object: KObject, gone: boolean, at: number) => void;

export class StoreWatch {
  private readonly objects = new Map<string, KObject>();
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<Listener>();
  private readonly handle: WatchHandle;

  constructor(store: Store, prefix: string, keep: (o: KObject) => boolean = () => true) {
    const listed = store.list(prefix);
    for (const { key, object } of listed.items) if (keep(object)) this.objects.set(key, object);
    this.handle = store.watch(prefix, listed.rv, (e) => {
      if (!keep(e.object) && !this.objects.has(e.key)) return;
      const gone = e.type === 'DELETED' || !keep(e.object);
      if (gone) this.objects.delete(e.key);
      else this.objects.set(e.key, e.object);
      const at = performance.now();
      for (const l of this.listeners) l(e.object, gone, at);
      for (const w of this.waiters) {
        if (!gone && w.match(e.object)) w.matching.add(e.key);
        else w.matching.delete(e.key);
        if (this.holds(w)) {
          this.waiters.delete(w);
          w.resolve(at);
        }
      }
    });
  }

  items(): KObject[] {
    return [...this.objects.values()];
  }

  /** Resolves with the time `c` first held (now, when it holds already); rejects after `timeoutMs`. */
  until(what: string, c: Condition, timeoutMs: number): Promise<number> {
    const matching = new Set([...this.objects].filter(([, o]) => c.match(o)).map(([k]) => k));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (${waiter.matching.size}/${c.count} match, ${this.objects.size} objects)`));
      }, timeoutMs);
      const waiter: Waiter = { ...c, matching, resolve: (at) => { clearTimeout(timer); resolve(at); } };
      if (this.holds(waiter)) waiter.resolve(performance.now());
      else this.waiters.add(waiter);
    });
  }

  /** Calls `listener` with every change of a kept object (gone: deleted) until the returned function is called. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.handle.stop();
    this.waiters.clear();
    this.listeners.clear();
  }

  private holds(w: Waiter): boolean {
    return w.matching.size >= w.count && (!w.exact || this.objects.size === w.count);
  }
}
