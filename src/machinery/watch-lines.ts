/**
 * The last watch events decoded, by their exact JSON line, for in-process watchers that never
 * modify what they receive. Every in-process watcher of one event gets the same line right after
 * the others, so a few dozen entries decode each event once instead of once per watcher. (A line
 * of a stored object comes with the object itself, SharedWatchEvent, and is not decoded at all.)
 */
import type { KObject, WatchEvent } from '../api/meta.js';

export class DecodedEvents {
  private readonly events = new Map<string, WatchEvent<KObject>>();

  constructor(private readonly size = 64) {}

  get(line: string): WatchEvent<KObject> | undefined {
    return this.events.get(line);
  }

  set(line: string, event: WatchEvent<KObject>): void {
    this.events.set(line, event);
    if (this.events.size > this.size) this.events.delete(this.events.keys().next().value!);
  }
}

/** One per process: the embedded API servers' lines and the in-process watchers' decodings. */
export const decodedWatchLines = new DecodedEvents();
