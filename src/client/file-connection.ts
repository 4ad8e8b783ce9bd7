/**
 * A Connection from a kubeconfig read by kubeconfig.ts (the usual case: no client-node in
 * memory), and the fallback that loads client-node only for what that reader leaves out.
 */
import { readFile } from 'node:fs/promises';
import type https from 'node:https';
import { Connection, KubeConfigConnection, type ConnectionMaterial, type HttpConnection } from './http-connection.js';
import type { KubeconfigSource, ResolvedKubeconfig } from './kubeconfig.js';
import type { WireRequest } from './request.js';

export class FileConfigConnection extends Connection {
  constructor(private readonly config: ResolvedKubeconfig, userAgent: string) {
    super(config.server, userAgent);
  }

  protected async load(): Promise<ConnectionMaterial> {
    const c = this.config;
    const token = c.token ?? (c.tokenFile ? (await readFile(c.tokenFile, 'utf8')).trim() : undefined);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const auth = c.username !== undefined ? `${c.username}:${c.password ?? ''}` : undefined;
    return {
      headers, ...(auth !== undefined && { auth }),
      tls: { ca: c.ca, cert: c.cert, key: c.key, ...(c.insecureSkipTlsVerify && { rejectUnauthorized: false }), ...(c.tlsServerName && { servername: c.tlsServerName }) },
    };
  }
}

/** Exec plugins, auth providers, proxies: client-node's KubeConfig, imported on first use. */
export class ClientNodeConnection implements HttpConnection {
  private inner?: Promise<KubeConfigConnection>;

  constructor(private readonly source: KubeconfigSource, private readonly userAgent: string) {}

  requestOptions(req: WireRequest, stream?: boolean): Promise<https.RequestOptions> {
    this.inner ??= import('@kubernetes/client-node').then(({ KubeConfig }) => {
      const kc = new KubeConfig();
      if (this.source.path) kc.loadFromFile(this.source.path);
      else kc.loadFromDefault(); // KUBECONFIG, ~/.kube/config, then the in-cluster service account
      return new KubeConfigConnection(kc, this.userAgent);
    });
    return this.inner.then((c) => c.requestOptions(req, stream));
  }
}
