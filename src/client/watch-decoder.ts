/**
 * The client side of a watch, shared by both transports: splits newline-delimited JSON arriving
 * in arbitrary chunks into typed events, turns an ERROR Status into onClose(StatusError), and
 * guarantees onClose is called at most once and nothing is delivered after stop().
 */
import { isObject, type KObject, type WatchEvent, type WatchEventType } from '../api/meta.js';
import { StatusError } from '../machinery/errors.js';
import type { WatchCallbacks } from './client.js';
import { isStatus, responseError, statusToError, type WireResponse } from './response.js';

/** What a transport reports about one streamed request. */
export interface StreamSink {
  /** The server answered with something other than 200: the whole response. */
  rejected(res: WireResponse): void;
  data(chunk: string): void;
  end(): void;
  /** The connection failed (already mapped to a StatusError by the transport). */
  failed(error: Error): void;
}

const eventTypes = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

export class WatchDecoder<T extends KObject> implements StreamSink {
  private buffer = '';
  private done = false;
  private abort: () => void = () => undefined;

  constructor(private readonly callbacks: WatchCallbacks<T>) {}

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

  data(chunk: string): void {
    if (this.done) return;
    this.buffer += chunk;
    let newline: number;
    while (!this.done && (newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line) this.line(line);
    }
  }

  end(): void {
    if (this.buffer.trim()) this.data('\n'); // a last event without its newline still counts
    this.close();
  }

  failed(error: Error): void {
    this.close(error);
  }

  private line(line: string): void {
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
    this.callbacks.onEvent(event as unknown as WatchEvent<T>);
  }

  private close(error?: Error): void {
    if (this.done) return;
    this.done = true;
    this.abort();
    this.callbacks.onClose(error);
  }
}
