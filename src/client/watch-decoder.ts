/**
 * The client side of a watch, shared by both transports: splits newline-delimited JSON arriving
 * in arbitrary chunks into typed events, turns an ERROR Status into onClose(StatusError), and
 * guarantees onClose is called at most once and nothing is delivered after stop().
 */
import { isObject, type KObject, type WatchEvent, type WatchEventType } from '../api/meta.js';
import { StatusError } from '../machinery/errors.js';
import type { WatchCallbacks } from './client.js';
import { isStatus, responseError, statusToError, type WireResponse } from './response.js';
import type { SharedWatchEvent } from '../api/request.js';

/** What a transport reports about one streamed request. */
export interface StreamSink {
  /** The server answered with something other than 200: the whole response. */
  rejected(res: WireResponse): void;
  /** `shared`: the same event as an object, from an in-process server (SharedWatchEvent). */
  data(chunk: string, shared?: SharedWatchEvent): void;
  end(): void;
  /** The connection failed (already mapped to a StatusError by the transport). */
  failed(error: Error): void;
}

const eventTypes = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Objects an in-process server shares with its own store: their strings live there already. */
const storeShared = new WeakSet<object>();

/** Whether `obj` came as the embedded server's own object (SharedWatchEvent), not decoded for this process. */
export function sharedWithStore(obj: object): boolean {
  return storeShared.has(obj);
}

/**
 * The last events decoded, by their exact line, for watchers that never mutate them: every
 * in-process watcher of one event gets the same text right after the others, so a few dozen
 * entries are enough to decode each event once instead of once per watcher.
 */
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

export class WatchDecoder<T extends KObject> implements StreamSink {
  private buffer = '';
  private done = false;
  private abort: () => void = () => undefined;

  constructor(private readonly callbacks: WatchCallbacks<T>, private readonly shared?: DecodedEvents) {}

  /** Hands over the transport's abort; a stream that already closed is aborted at once. */
  attach(abort: () => void): void {
    this.abort = abort;
    if (this.done) abort();
  }

  /** The caller's stop(): no more callbacks of any kind. */
  stop(): void {
    if (this.done) return;
    this.done = true;
    this.abort();
  }

  rejected(res: WireResponse): void {
    this.close(responseError(res));
  }

  data(chunk: string, shared?: SharedWatchEvent): void {
    if (this.done) return;
    // A read-only watcher of the embedded server takes its object: nothing to parse (performance.md §20).
    if (shared && this.shared && !this.buffer) {
      const object = shared.object();
      storeShared.add(object);
      return this.callbacks.onEvent({ type: shared.type, object } as WatchEvent<T>);
    }
    // The in-process transport hands every watcher the same string per event, one line ending in
    // '\n': looked up as it is, its hash is computed once and no watcher copies it (performance.md §13).
    if (!this.buffer && this.shared && chunk.indexOf('\n') === chunk.length - 1) {
      const line = chunk.trim();
      if (line) this.line(line, chunk);
      return;
    }
    // Lines are cut out of the chunk in place; only a trailing partial line is kept (and joined
    // with the next chunk), so a burst of events does not copy the whole stream over and over.
    const text = this.buffer ? this.buffer + chunk : chunk;
    this.buffer = '';
    let start = 0;
    let newline: number;
    while (!this.done && (newline = text.indexOf('\n', start)) >= 0) {
      const line = text.slice(start, newline).trim();
      start = newline + 1;
      if (line) this.line(line);
    }
    if (!this.done && start < text.length) this.buffer = text.slice(start);
  }

  end(): void {
    if (this.buffer.trim()) this.data('\n'); // a last event without its newline still counts
    this.close();
  }

  failed(error: Error): void {
    this.close(error);
  }

  /** `key`: what the shared cache knows the event by (the line, or the chunk that held only it). */
  private line(line: string, key = line): void {
    const known = this.shared?.get(key);
    if (known) return this.callbacks.onEvent(known as WatchEvent<T>);
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch (e) {
      return this.close(new StatusError(500, 'InternalError', `malformed watch event: ${(e as Error).message}: ${line.slice(0, 200)}`));
    }
    if (!isObject(event) || !eventTypes.has(event.type as WatchEventType) || !isObject(event.object)) {
      return this.close(new StatusError(500, 'InternalError', `malformed watch event: ${line.slice(0, 200)}`));
    }
    if (event.type === 'ERROR') {
      const status = isStatus(event.object) ? event.object : { message: JSON.stringify(event.object) };
      return this.close(statusToError(status));
    }
    this.shared?.set(key, event as unknown as WatchEvent<KObject>);
    this.callbacks.onEvent(event as unknown as WatchEvent<T>);
  }

  private close(error?: Error): void {
    if (this.done) return;
    this.done = true;
    this.abort();
    this.callbacks.onClose(error);
  }
}
