/**
 * What the HTTP client needs to reach a server: its address (with any base path), two keep-alive
 * Agents carrying the TLS material (one for requests, one for watches) and auth headers, re-read
 * every few seconds so rotating credentials (in-cluster token files, exec plugins) are picked up.
 * `Connection` does the common part; the kubeconfig reader (file-connection.ts) or a client-node
 * KubeConfig (below) supply the material.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import type { WireRequest } from './request.js';

/** How long auth headers are reused; client-node's token file cache refreshes every 60 s anyway. */
const credentialsTtlMs = 10_000;

/**
 * Connections for plain requests. A burst (a controller creating hundreds of pods) queues here
 * instead of opening a TLS connection per request, which costs both ends a handshake and the
 * server its event loop; watches hold their connection for minutes and get an agent of their own.
 */
export const maxRequestSockets = 32;

export interface HttpConnection {
  requestOptions(req: WireRequest, stream?: boolean): Promise<https.RequestOptions>;
}

export type TlsMaterial = Pick<https.AgentOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'>;

export interface ConnectionMaterial {
  headers: Record<string, string>;
  /** user:password for basic auth. */
  auth?: string;
  /** Read when the agents are made (once). */
  tls: TlsMaterial;
  /** A ready agent to use for everything instead (client-node's proxy agents). */
  agent?: http.Agent;
}

export abstract class Connection implements HttpConnection {
  private readonly base: URL;
  private agents?: { requests: http.Agent; streams: http.Agent };
  private material?: Promise<ConnectionMaterial>;
  private expires = 0;

  constructor(server: string, private readonly userAgent: string) {
    this.base = new URL(server);
  }

  protected abstract load(): Promise<ConnectionMaterial>;

  async requestOptions(req: WireRequest, stream = false): Promise<https.RequestOptions> {
    const m = await this.current();
    this.agents ??= { requests: this.makeAgent(m, maxRequestSockets), streams: this.makeAgent(m) };
    const headers: Record<string, string> = { ...m.headers, accept: 'application/json', 'user-agent': this.userAgent };
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.body) headers['content-length'] = String(req.body.length);
    const query = req.query.toString();
    return {
      protocol: this.base.protocol,
      hostname: this.base.hostname.replace(/^\[(.*)\]$/, '$1'), // IPv6 literals go without brackets
      port: this.base.port || (this.base.protocol === 'http:' ? 80 : 443),
      method: req.method,
      path: `${this.base.pathname.replace(/\/+$/, '')}${req.path}${query ? `?${query}` : ''}`,
      headers, auth: m.auth, agent: stream ? this.agents.streams : this.agents.requests,
    };
  }

  private current(): Promise<ConnectionMaterial> {
    if (!this.material || this.expires <= Date.now()) {
      this.expires = Date.now() + credentialsTtlMs;
      const loading = this.load();
      loading.catch(() => { if (this.material === loading) this.expires = 0; }); // retry after a failure
      this.material = loading;
    }
    return this.material;
  }

  private makeAgent(m: ConnectionMaterial, maxSockets?: number): http.Agent {
    if (m.agent) return m.agent;
    if (this.base.protocol === 'http:') return new http.Agent({ keepAlive: true, maxSockets });
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = m.tls;
    // One secure context: otherwise every new connection parses the CA and key again.
    const secureContext = tls.createSecureContext({ ca, cert, key, pfx, passphrase });
    const options: https.AgentOptions = { keepAlive: true, maxSockets, secureContext, servername };
    if (rejectUnauthorized !== undefined) options.rejectUnauthorized = rejectUnauthorized;
    return new https.Agent(options);
  }
}

/** Material from a client-node KubeConfig object: exec plugins, auth providers and proxies included. */
export class KubeConfigConnection extends Connection {
  private readonly proxied: boolean;

  constructor(private readonly kc: KubeConfig, userAgent: string) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster (is current-context set?)');
    super(cluster.server, userAgent);
    this.proxied = Boolean(cluster.proxyUrl);
  }

  protected async load(): Promise<ConnectionMaterial> {
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = String(v);
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = opts;
    // Proxy agents (http/https/socks) are client-node's; keep them rather than re-implementing proxies.
    const agent = this.proxied && opts.agent instanceof http.Agent ? opts.agent : undefined;
    return { headers, auth: opts.auth ?? undefined, tls: { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername }, ...(agent && { agent }) };
  }
}
