/**
 * A Client for any API server, configured from a kubeconfig or the in-cluster service account
 * (kubeconfig.ts; @kubernetes/client-node is loaded only for exec plugins, auth providers and
 * proxies, or when handed a KubeConfig object). Requests go out on Node's `https` module with
 * keep-alive Agents, and `https` needs no dependency beyond Node.
 */
import http from 'node:http';
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
  constructor(private readonly connection: HttpConnection, private readonly limiter: RateLimiter | undefined, private readonly timeoutMs: number) {}

  private async open(req: WireRequest, stream = false): Promise<http.ClientRequest> {
    await this.limiter?.take();
    const options = await this.connection.requestOptions(req, stream);
    return (options.protocol === 'http:' ? http : https).request(options);
  }

  async send(req: WireRequest): Promise<WireResponse> {
    try {
      const r = await this.open(req);
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
    let request: http.ClientRequest | undefined;
    const fail = (e: unknown) => { if (!aborted) sink.failed(transportError(e)); };
    this.open(req, true).then((r) => {
      request = r;
      if (aborted) return void r.destroy();
      r.on('error', fail);
      r.on('response', (res) => {
        if (res.statusCode !== 200) {
          return void readAll(res).then((whole) => { finished = true; sink.rejected(whole); }, fail);
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => sink.data(chunk));
        res.on('end', () => { finished = true; sink.end(); });
        res.on('error', fail);
        res.on('close', () => { if (!res.complete) fail(cutShort()); });
      });
      r.end();
    }, fail);
    return () => {
      if (aborted) return;
      aborted = true;
      if (!finished) request?.destroy();
    };
  }
}
