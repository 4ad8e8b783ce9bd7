/**
 * Live watchers grouped by key prefix, so each committed event is matched against every distinct
 * prefix once rather than against every watcher. Each watcher remembers the last rv it was given
 * and never receives an event at or below it, which makes delivery idempotent even when a callback
 * starts a new watch (whose history replay already covered the event being delivered).
 */
import type { StoreEvent, WatchHandle } from './store.js';

interface Watcher {
  prefix: string;
  lastRv: number;
  onEvent: (event: StoreEvent) => void;
}

export class Watchers {
  private byPrefix = new Map<string, Set<Watcher>>();

  /** Registers a watcher that has already seen every event up to `lastRv`. */
  add(prefix: string, lastRv: number, onEvent: (event: StoreEvent) => void): WatchHandle {
    const watcher: Watcher = { prefix, lastRv, onEvent };
    let set = this.byPrefix.get(prefix);
    if (!set) this.byPrefix.set(prefix, (set = new Set()));
    set.add(watcher);
    return { stop: () => this.remove(watcher) };
  }

  get count(): number {
    let n = 0;
    for (const set of this.byPrefix.values()) n += set.size;
    return n;
  }

  deliver(event: StoreEvent): void {
    for (const [prefix, set] of this.byPrefix) {
      if (!event.key.startsWith(prefix)) continue;
      for (const watcher of set) {
        if (event.rv <= watcher.lastRv) continue;
        watcher.lastRv = event.rv;
        try {
          watcher.onEvent(event);
        } catch (err) {
          // The contract says callbacks never throw; if one does, drop that watcher and surface
          // the bug as an uncaught error instead of stalling the commit pipeline.
          this.remove(watcher);
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    }
  }

  private remove(watcher: Watcher): void {
    const set = this.byPrefix.get(watcher.prefix);
    if (!set?.delete(watcher)) return;
    if (set.size === 0) this.byPrefix.delete(watcher.prefix);
  }
}
