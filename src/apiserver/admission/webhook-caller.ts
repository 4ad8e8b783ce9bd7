/**
 * POSTs a JSON review to a webhook over HTTPS: one keep-alive agent per CA bundle (the TLS
 * handshake is paid once per connection, not per call), a deadline per call, and failures worded
 * as Go's HTTP client words them, since kube-apiserver's messages embed them.
 */
import https from 'node:https';
import tls from 'node:tls';
import type { RegistryReader } from '../registry/reader.js';
import { ServiceResolver, WebhookCallError, type CallTarget } from './service-resolver.js';
import type { WebhookClientConfig } from './webhook-config.js';

export { WebhookCallError };

const deadline = Symbol('deadline');

/** Connections per webhook server (CA bundle). */
export const webhookMaxSockets = 32;

interface RawResponse { status: number; text: string }

const unknownAuthority = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_SIGNATURE_FAILURE',
]);

function describeCause(err: NodeJS.ErrnoException & { [deadline]?: boolean }, target: CallTarget): string {
  if (err[deadline]) return 'context deadline exceeded';
  const code = err.code ?? '';
  const addr = target.host.includes(':') ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
  if (code === 'ECONNREFUSED') return `dial tcp ${addr}: connect: connection refused`;
  if (code === 'ECONNRESET') return `read tcp ${addr}: read: connection reset by peer`;
  if (unknownAuthority.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: certificate is not valid for ${target.servername ?? target.host}`;
  return err.message;
}

/** The rest client's wording for a non-2xx answer that is not a Status. */
function describeStatus(res: RawResponse): string {
  try {
    const status = JSON.parse(res.text) as { kind?: string; message?: string };
    if (status.kind === 'Status' && status.message) return status.message;
  } catch { /* not JSON: fall through */ }
  if (res.status >= 500) return `an error on the server (${JSON.stringify(res.text.slice(0, 1024))}) has prevented the request from succeeding`;
  return `the server responded with the status code ${res.status} but did not return more information`;
}

export class WebhookCaller {
  private readonly agents = new Map<string, https.Agent>();
  readonly resolver: ServiceResolver;

  constructor(reader: RegistryReader) {
    this.resolver = new ServiceResolver(reader);
  }

  /** Sends `body` and returns the parsed JSON answer; throws WebhookCallError with the cause. */
  async post(config: WebhookClientConfig, body: string, timeoutSeconds: number): Promise<unknown> {
    const target = this.resolver.resolve(config, timeoutSeconds);
    let res: RawResponse;
    try {
      res = await this.send(target, body, timeoutSeconds * 1000, true);
    } catch (e) {
      throw new WebhookCallError(`Post "${target.display}": ${describeCause(e as NodeJS.ErrnoException, target)}`);
    }
    if (res.status < 200 || res.status > 299) throw new WebhookCallError(describeStatus(res));
    try {
      return JSON.parse(res.text);
    } catch (e) {
      throw new WebhookCallError(`the response could not be decoded: ${(e as Error).message}`);
    }
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agentFor(caBundle: string): https.Agent {
    let agent = this.agents.get(caBundle);
    if (!agent) {
      // A secure context rather than `ca`: the CA is parsed once, and the agent's per-request
      // connection-pool key (which would embed a `ca` PEM) stays short.
      const secureContext = caBundle ? tls.createSecureContext({ ca: Buffer.from(caBundle, 'base64').toString('utf8') }) : undefined;
      // A burst of pod creates waits for one of these connections rather than opening (and the
      // webhook server accepting and holding) a TLS connection per request; a handler answers in
      // about a millisecond, so a few dozen in flight keep it busy.
      agent = new https.Agent({ keepAlive: true, maxSockets: webhookMaxSockets, scheduling: 'lifo', secureContext });
      this.agents.set(caBundle, agent);
    }
    return agent;
  }

  private send(target: CallTarget, body: string, timeoutMs: number, retryStale: boolean): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // A keep-alive connection the server closed meanwhile: retry once on a fresh one.
        if (retryStale && req.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
          this.send(target, body, timeoutMs, false).then(resolve, reject);
        } else reject(err);
      };
      const req = https.request({
        host: target.host, port: target.port, path: target.path, method: 'POST', servername: target.servername,
        agent: this.agentFor(target.caBundle),
        headers: { 'content-type': 'application/json', accept: 'application/json, */*', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('deadline'), { [deadline]: true })), timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
  }
}
