/**
 * What the HTTP client needs from a KubeConfig: the server's address (with any base path), one
 * keep-alive Agent carrying the TLS material, and auth headers, re-read every few seconds so
 * rotating credentials (in-cluster token files, exec plugins) are picked up.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { WireRequest } from './request.js';

/** How long auth headers are reused; client-node's token file cache refreshes every 60 s anyway. */
const credentialsTtlMs = 10_000;

interface Credentials {
  headers: Record<string, string>;
  /** user:password for basic auth. */
  auth?: string;
}

export class KubeConfigConnection {
  private readonly base: URL;
  private readonly proxied: boolean;
  private agent?: http.Agent;
  private credentials?: Promise<Credentials>;
  private expires = 0;

  constructor(private readonly kc: KubeConfig, private readonly userAgent: string) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster (is current-context set?)');
    this.base = new URL(cluster.server);
    this.proxied = Boolean(cluster.proxyUrl);
  }

  async requestOptions(req: WireRequest): Promise<https.RequestOptions> {
    const creds = await this.current();
    const headers: Record<string, string> = { ...creds.headers, accept: 'application/json', 'user-agent': this.userAgent };
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.body) headers['content-length'] = String(req.body.length);
    const query = req.query.toString();
    return {
      protocol: this.base.protocol,
      hostname: this.base.hostname.replace(/^\[(.*)\]$/, '$1'), // IPv6 literals go without brackets
      port: this.base.port || (this.base.protocol === 'http:' ? 80 : 443),
      method: req.method,
      path: `${this.base.pathname.replace(/\/+$/, '')}${req.path}${query ? `?${query}` : ''}`,
      headers, auth: creds.auth, agent: this.agent,
    };
  }

  private current(): Promise<Credentials> {
    if (!this.credentials || this.expires <= Date.now()) {
      this.expires = Date.now() + credentialsTtlMs;
      const loading = this.load();
      loading.catch(() => { if (this.credentials === loading) this.expires = 0; }); // retry after a failure
      this.credentials = loading;
    }
    return this.credentials;
  }

  private async load(): Promise<Credentials> {
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    this.agent ??= this.makeAgent(opts);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = String(v);
    return { headers, auth: opts.auth ?? undefined };
  }

  private makeAgent(opts: https.RequestOptions): http.Agent {
    // Proxy agents (http/https/socks) are client-node's; keep them rather than re-implementing proxies.
    if (this.proxied && opts.agent instanceof http.Agent) return opts.agent;
    if (this.base.protocol === 'http:') return new http.Agent({ keepAlive: true });
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = opts;
    const tls: https.AgentOptions = { keepAlive: true, ca, cert, key, pfx, passphrase, servername };
    if (rejectUnauthorized !== undefined) tls.rejectUnauthorized = rejectUnauthorized;
    return new https.Agent(tls);
  }
}
