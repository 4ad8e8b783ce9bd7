/**
 * A Client for any API server, configured from a kubeconfig or the in-cluster service account
 * through client-node's KubeConfig. Requests go out on Node's `https` module with one keep-alive
 * Agent: KubeConfig hands its TLS material and auth headers over as https.RequestOptions, and
 * `https` needs no dependency beyond Node (undici is only client-node's transitive dependency).
 */
import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { Client } from './client.js';
import { RateLimiter } from './rate-limiter.js';
import { defaultUserAgent, type WireRequest } from './request.js';
import { transportError, type WireResponse } from './response.js';
import { TransportClient, type Transport } from './transport-client.js';
import type { StreamSink } from './watch-decoder.js';
import { KubeConfigConnection } from './http-connection.js';

export interface HttpClientOptions {
  /** Read this kubeconfig file; otherwise `kubeConfig`, otherwise KUBECONFIG, ~/.kube/config or in-cluster. */
  kubeconfigPath?: string;
  kubeConfig?: KubeConfig;
  /** The server derives the default field manager from it (up to the first '/'). */
  userAgent?: string;
  /** Client-side throttling (burst = 2 x qps); unlimited when unset. */
  qps?: number;
  /** Timeout for non-watch requests; 60 s by default. */
  requestTimeoutMs?: number;
}

export function createHttpClient(options: HttpClientOptions = {}): Client {
  const kc = options.kubeConfig ?? loadKubeConfig(options.kubeconfigPath);
  const limiter = options.qps ? new RateLimiter({ qps: options.qps }) : undefined;
  const connection = new KubeConfigConnection(kc, options.userAgent ?? defaultUserAgent);
  return new TransportClient(new HttpTransport(connection, limiter, options.requestTimeoutMs ?? 60_000));
}

function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault(); // KUBECONFIG, ~/.kube/config, then the in-cluster service account
  return kc;
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
  constructor(private readonly connection: KubeConfigConnection, private readonly limiter: RateLimiter | undefined, private readonly timeoutMs: number) {}

  private async open(req: WireRequest): Promise<http.ClientRequest> {
    await this.limiter?.take();
    const options = await this.connection.requestOptions(req);
    return (options.protocol === 'http:' ? http : https).request(options);
  }

  async send(req: WireRequest): Promise<WireResponse> {
    try {
      const r = await this.open(req);
      return await new Promise<WireResponse>((resolve, reject) => {
        r.setTimeout(this.timeoutMs, () => r.destroy(new Error(`no response within ${this.timeoutMs} ms`)));
        r.on('response', (res) => readAll(res).then(resolve, reject));
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
    this.open(req).then((r) => {
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
