/**
 * The list-then-watch loop behind an informer (client-go's Reflector). It never gives up: a cleanly
 * closed watch resumes from the last resourceVersion seen (events and bookmarks), 410 Expired
 * relists at once, and any other failure backs off (doubling, capped) and retries. What it learns
 * goes to a sink: the informer's cache and handlers.
 */
import type { KObject, WatchEvent } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { StatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/log.js';
import { sleep, type Clock } from '../machinery/clock.js';
import { listAll, watchOnce, withTypeMeta, type Selection } from './list-watch.js';

export interface ReflectorSink<T> {
  /** A complete, consistent list: the cache becomes exactly this. */
  replace(items: T[]): void;
  upsert(obj: T): void;
  remove(obj: T): void;
}

export interface ReflectorOptions {
  client: Client;
  type: ResourceType;
  selection: Selection;
  clock: Clock;
  log: Logger;
  backoff?: { initialMs?: number; maxMs?: number };
  /** The sink never mutates what it is given, beyond what every such sink does (see WatchOptions). */
  readOnlyObjects?: boolean;
}

export class Reflector<T extends KObject> {
  private resourceVersion: string | undefined;
  private stopWatch: (() => void) | undefined;

  constructor(private readonly o: ReflectorOptions, private readonly sink: ReflectorSink<T>) {}

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener('abort', () => this.stopWatch?.(), { once: true });
    const initialMs = this.o.backoff?.initialMs ?? 500;
    const maxMs = this.o.backoff?.maxMs ?? 30_000;
    let delay = initialMs;
    while (!signal.aborted) {
      let healthy = false;
      try {
        if (this.resourceVersion === undefined) await this.relist(signal);
        if (signal.aborted) break;
        healthy = await this.watch();
      } catch (e) {
        if (signal.aborted) break;
        this.o.log.info({ err: e }, 'list/watch failed, retrying');
      }
      if (healthy) delay = initialMs;
      else {
        await sleep(this.o.clock, delay, signal);
        delay = Math.min(delay * 2, maxMs);
      }
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await listAll<T>(this.o.client, this.o.type, this.o.selection);
    if (signal.aborted) return;
    this.resourceVersion = resourceVersion;
    this.sink.replace(items.map((o) => withTypeMeta(this.o.type, o)));
  }

  /** Watches until the stream ends; true if it was a healthy watch (re-watch at once). */
  private async watch(): Promise<boolean> {
    const started = this.o.clock.now();
    const options = { ...this.o.selection, resourceVersion: this.resourceVersion, readOnlyObjects: this.o.readOnlyObjects };
    const { handle, done } = watchOnce<T>(this.o.client, this.o.type, options, (ev) => this.apply(ev));
    this.stopWatch = handle;
    const { error, events } = await done;
    this.stopWatch = undefined;
    if (error instanceof StatusError && error.code === 410) {
      this.o.log.info({ resourceVersion: this.resourceVersion }, 'watch expired, relisting');
      this.resourceVersion = undefined;
      return true;
    }
    if (error) throw error;
    // A watch the server ends at once, with nothing to say, is a failure in disguise: back off.
    return events > 0 || this.o.clock.now() - started >= 1000;
  }

  private apply(event: WatchEvent<T>): void {
    const rv = event.object.metadata?.resourceVersion;
    if (event.type !== 'BOOKMARK') {
      const obj = withTypeMeta(this.o.type, event.object);
      if (event.type === 'DELETED') this.sink.remove(obj);
      else this.sink.upsert(obj);
    }
    if (rv) this.resourceVersion = rv;
  }
}
