/**
 * The one Client implementation. Transports (HTTP, in-process) only move bytes: they send a
 * WireRequest and hand back a WireResponse or a stream; everything else is decided here.
 */
import type { KList, KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type {
  Client, DeleteOptions, ListOptions, PatchOptions, PatchType, UpdateOptions, WatchCallbacks, WatchHandle, WatchOptions, WriteOptions,
} from './client.js';
import * as build from './request.js';
import { interpret, type WireResponse } from './response.js';
import { DecodedEvents, WatchDecoder, type StreamSink } from './watch-decoder.js';

/** One per process, for the in-process watchers of every embedded API server in it. */
const sharedDecodes = new DecodedEvents();

export interface Transport {
  /** Resolves with whatever the server answered; rejects (with a 503 StatusError) only when it could not be reached. */
  send(req: build.WireRequest): Promise<WireResponse>;
  /** Starts a streamed request and reports to `sink`; the returned function aborts it (idempotent, silent). */
  stream(req: build.WireRequest, sink: StreamSink): () => void;
  /** Watchers of one event receive the very same line (in-process): read-only ones may share its decoding. */
  readonly sharedLines?: boolean;
}

export class TransportClient implements Client {
  constructor(private readonly transport: Transport) {}

  private async call<R>(make: () => build.WireRequest): Promise<R> {
    const req = make(); // inside the async function: building errors become rejections
    return interpret(await this.transport.send(req)) as R;
  }

  get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string, options?: { subresource?: string }): Promise<T> {
    return this.call(() => build.getRequest(type, namespace, name, options?.subresource));
  }

  list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
    return this.call(() => build.listRequest(type, options));
  }

  watch<T extends KObject = KObject>(type: ResourceType, options: WatchOptions, callbacks: WatchCallbacks<T>): WatchHandle {
    const decoder = new WatchDecoder<T>(callbacks, options.readOnlyObjects && this.transport.sharedLines ? sharedDecodes : undefined);
    let req: build.WireRequest;
    try {
      req = build.watchRequest(type, options);
    } catch (e) {
      // Same contract as a server-side refusal: reported through onClose, never thrown.
      queueMicrotask(() => decoder.failed(e as Error));
      return { stop: () => decoder.stop() };
    }
    decoder.attach(this.transport.stream(req, decoder));
    return { stop: () => decoder.stop() };
  }

  create<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T> {
    return this.call(() => build.createRequest(type, obj, options));
  }

  update<T extends KObject>(type: ResourceType, obj: T, options?: UpdateOptions): Promise<T> {
    return this.call(() => build.updateRequest(type, obj, options, options?.subresource));
  }

  updateStatus<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T> {
    return this.call(() => build.updateRequest(type, obj, options, 'status'));
  }

  patch<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, options?: PatchOptions): Promise<T> {
    return this.call(() => build.patchRequest(type, namespace, name, patchType, patch, options));
  }

  async delete(type: ResourceType, namespace: string | undefined, name: string, options?: DeleteOptions): Promise<void> {
    await this.call(() => build.deleteRequest(type, namespace, name, options));
  }

  createSubresource(type: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): Promise<unknown> {
    return this.call(() => build.subresourceRequest(type, namespace, name, subresource, body));
  }
}
