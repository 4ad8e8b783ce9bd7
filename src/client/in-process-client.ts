/**
 * A Client over the embedded API server's request pipeline, without sockets: the same ApiRequest
 * an HTTP request would become (so authorization, admission and validation run unchanged) and
 * the response read back through its JSON text, so callers never share objects with the store.
 */
import type { Client } from './client.js';
import { defaultUserAgent, type WireRequest } from './request.js';
import type { ApiRequest, ApiResponse, RequestHandler, UserInfo } from '../api/request.js';
import { transportError, type WireResponse } from './response.js';
import { TransportClient, type Transport } from './transport-client.js';
import type { StreamSink } from './watch-decoder.js';
import { jsonText } from '../machinery/json-text.js';

export const defaultInProcessUser: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

export function createInProcessClient(handler: RequestHandler, user: UserInfo = defaultInProcessUser, userAgent = defaultUserAgent): Client {
  return new TransportClient(new InProcessTransport(handler, user, userAgent));
}

class InProcessTransport implements Transport {
  readonly sharedLines = true;

  constructor(private readonly handler: RequestHandler, private readonly user: UserInfo, private readonly userAgent: string) {}

  private toApiRequest(req: WireRequest): ApiRequest {
    const headers: Record<string, string | undefined> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.body) headers['content-length'] = String(req.body.length);
    // A fresh query and user per request: the server may keep or modify either.
    return { method: req.method, path: req.path, query: new URLSearchParams(req.query), headers, body: req.body, user: { ...this.user, groups: [...this.user.groups] } };
  }

  async send(req: WireRequest): Promise<WireResponse> {
    let res: ApiResponse;
    try {
      res = await this.handler.handle(this.toApiRequest(req));
    } catch (e) {
      throw transportError(e); // the handler answers errors itself; a throw is a broken server
    }
    if (res.watch) throw transportError(new Error(`unexpected watch stream for ${req.method} ${req.path}`));
    return wireResponse(res);
  }

  stream(req: WireRequest, sink: StreamSink): () => void {
    let stopped = false;
    let ended = false;
    let stopServer: (() => void) | undefined;
    // Deliver on a later microtask: never run client callbacks inside the store's write path.
    const later = (f: () => void) => queueMicrotask(() => { if (!stopped) f(); });
    this.handler.handle(this.toApiRequest(req)).then((res) => {
      if (stopped) return;
      if (!res.watch) return later(() => unstreamed(wireResponse(res), sink));
      stopServer = res.watch.start((chunk, shared) => later(() => sink.data(typeof chunk === 'string' ? chunk : chunk.toString('utf8'), shared)), () => {
        ended = true;
        later(() => sink.end());
      });
    }, (e: unknown) => later(() => sink.failed(transportError(e))));
    return () => {
      if (stopped) return;
      stopped = true;
      if (!ended) stopServer?.();
    };
  }
}

/** An answer without a stream, handled as HTTP would see it: a refusal, or a body read as events. */
function unstreamed(res: WireResponse, sink: StreamSink): void {
  if (res.code !== 200) return sink.rejected(res);
  sink.data(res.text);
  sink.end();
}

/** The bytes HTTP would carry, so both clients interpret identical text. */
function wireResponse(res: ApiResponse): WireResponse {
  const text = res.raw?.toString('utf8') ?? res.text ?? (res.body === undefined ? '' : jsonText(res.body));
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(res.headers ?? {})) headers[k.toLowerCase()] = v;
  headers['content-type'] = res.contentType ?? 'application/json';
  return { code: res.code, headers, text };
}
