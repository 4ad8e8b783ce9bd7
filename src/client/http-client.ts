/**
 * A Client for any API server, configured from a kubeconfig or the in-cluster service account
 * (kubeconfig.ts; @kubernetes/client-node is loaded only for exec plugins, auth providers and
 * proxies, or when handed a KubeConfig object). Requests and watches go as streams of one HTTP/2
 * session where the server speaks h2 (h2-session.ts), otherwise on Node's `https` module with
 * keep-alive Agents; neither needs a dependency beyond Node.
 */
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Client } from './client.js';
import { RateLimiter } from './rate-limiter.js';
import { defaultUserAgent, type WireRequest } from './request.js';
import { transportError, type WireResponse } from './response.js';
import { TransportClient, type Transport } from './transport-client.js';
import type { StreamSink } from './watch-decoder.js';
import { ClientNodeConnection, FileConfigConnection } from './file-connection.js';
import { KubeConfigConnection, type HttpConnection } from './http-connection.js';
import { H2Session, h2Requests } from './h2-session.js';
import { loadKubeconfig, type ResolvedKubeconfig } from './kubeconfig.js';

export interface HttpClientOptions {
  /** Read this kubeconfig file; otherwise `kubeConfig`, otherwise KUBECONFIG, ~/.kube/config or in-cluster. */
  kubeconfigPath?: string;
  kubeConfig?: KubeConfig;
  /** An already resolved kubeconfig (e.g. one cluster with another user's token). */
  resolved?: ResolvedKubeconfig;
  /** The server derives the default field manager from it (up to the first '/'). */
  userAgent?: string;
  /** Client-side throttling (burst = 2 x qps); unlimited when unset. */
  qps?: number;
  /** Timeout for non-watch requests; 60 s by default. */
  requestTimeoutMs?: number;
}

export function createHttpClient(options: HttpClientOptions = {}): Client {
  const userAgent = options.userAgent ?? defaultUserAgent;
  const limiter = options.qps ? new RateLimiter({ qps: options.qps }) : undefined;
  return new TransportClient(new HttpTransport(connectionFor(options, userAgent), limiter, options.requestTimeoutMs ?? 60_000));
}

function connectionFor(options: HttpClientOptions, userAgent: string): HttpConnection {
  if (options.kubeConfig) return new KubeConfigConnection(options.kubeConfig, userAgent);
  if (options.resolved) return new FileConfigConnection(options.resolved, userAgent);
  const source = { path: options.kubeconfigPath };
  const config = loadKubeconfig(source); // throws on a missing file or current context, as before
  return config.needs ? new ClientNodeConnection(source, userAgent) : new FileConfigConnection(config, userAgent);
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readAll(res: http.IncomingMessage): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => { text += chunk; });
    res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: flatten(res.headers), text }));
    res.on('error', reject);
    res.on('close', () => { if (!res.complete) reject(cutShort()); });
  });
}

const cutShort = () => new Error('the connection closed before the response was complete');

class HttpTransport implements Transport {
  private readonly h2 = new H2Session();

  constructor(private readonly connection: HttpConnection, private readonly limiter: RateLimiter | undefined, private readonly timeoutMs: number) {}

  private async options(req: WireRequest, stream = false): Promise<https.RequestOptions> {
    await this.limiter?.take();
    return this.connection.requestOptions(req, stream);
  }

  async send(req: WireRequest): Promise<WireResponse> {
    try {
      const options = await this.options(req);
      const h2 = h2Requests ? await this.h2.open(options, req.body) : undefined;
      if (h2) return await answerOverH2(h2, this.timeoutMs);
      const r = (options.protocol === 'http:' ? http : https).request(options);
      return await new Promise<WireResponse>((resolve, reject) => {
        r.setTimeout(this.timeoutMs, () => r.destroy(new Error(`no response within ${this.timeoutMs} ms`)));
        r.on('response', (res) => void readAll(res).then(resolve, reject));
        r.on('error', reject);
        r.end(req.body);
      });
    } catch (e) {
      throw transportError(e);
    }
  }

  stream(req: WireRequest, sink: StreamSink): () => void {
    let aborted = false;
    let finished = false;
    let cancel: (() => void) | undefined;
    const fail = (e: unknown) => {
      if (aborted || finished) return;
      finished = true;
      sink.failed(transportError(e));
    };
    const done = (f: () => void) => { if (!finished) { finished = true; f(); } };
    void (async () => {
      const options = await this.options(req, true);
      const h2 = aborted ? undefined : await this.h2.open(options);
      if (h2) {
        cancel = () => h2.close(http2.constants.NGHTTP2_CANCEL);
        if (aborted) return cancel();
        return watchOverH2(h2, sink, done, fail);
      }
      const r = (options.protocol === 'http:' ? http : https).request(options);
      cancel = () => r.destroy();
      if (aborted) return cancel();
      r.on('error', fail);
      r.on('response', (res) => {
        if (res.statusCode !== 200) {
          return void readAll(res).then((whole) => done(() => sink.rejected(whole)), fail);
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => sink.data(chunk));
        res.on('end', () => done(() => sink.end()));
        res.on('error', fail);
        res.on('close', () => { if (!res.complete) fail(cutShort()); });
      });
      r.end();
    })().catch(fail);
    return () => {
      if (aborted) return;
      aborted = true;
      if (!finished) cancel?.();
    };
  }
}

/** Response headers of an HTTP/2 stream without the pseudo-headers, as HTTP/1.1 gives them. */
function plainHeaders(headers: http2.IncomingHttpHeaders): Record<string, string | undefined> {
  const plain: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) if (!k.startsWith(':')) plain[k] = Array.isArray(v) ? v.join(', ') : v === undefined ? undefined : String(v);
  return plain;
}

/** A request's whole answer on an HTTP/2 stream (h2-session.ts). */
function answerOverH2(stream: http2.ClientHttp2Stream, timeoutMs: number): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    stream.setTimeout(timeoutMs, () => stream.destroy(new Error(`no response within ${timeoutMs} ms`)));
    stream.setEncoding('utf8');
    stream.on('error', reject);
    stream.once('response', (headers) => {
      let text = '';
      stream.on('data', (chunk: string) => { text += chunk; });
      stream.on('end', () => resolve({ code: Number(headers[':status']), headers: plainHeaders(headers), text }));
    });
    stream.on('close', () => reject(cutShort())); // after 'end' this changes nothing
  });
}

/** A watch's answer on an HTTP/2 stream (h2-session.ts): the same sink calls as over HTTP/1.1. */
function watchOverH2(stream: http2.ClientHttp2Stream, sink: StreamSink, done: (f: () => void) => void, fail: (e: unknown) => void): void {
  stream.setEncoding('utf8');
  stream.on('error', fail);
  stream.once('response', (headers) => {
    const code = Number(headers[':status']);
    const plain = plainHeaders(headers);
    let text = '';
    stream.on('data', (chunk: string) => { if (code === 200) sink.data(chunk); else text += chunk; });
    stream.on('end', () => done(() => (code === 200 ? sink.end() : sink.rejected({ code, headers: plain, text }))));
  });
  stream.on('close', () => fail(cutShort()));
}
