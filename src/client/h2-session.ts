/**
 * Requests and watches over one HTTP/2 connection, as client-go multiplexes them: each is a stream
 * of a shared session instead of a TLS connection of its own (a manager with 32 informers held 32
 * watch connections and 32 request connections, about 140 KiB of native memory each;
 * docs/design/performance.md §15, §18). A server that does not negotiate h2 (ALPN), a proxy or
 * plain http keeps HTTP/1.1: `open` then answers undefined. KRUISE_HTTP2_REQUESTS=off keeps plain
 * requests on HTTP/1.1 (to compare).
 */
import http2 from 'node:http2';
import type https from 'node:https';
import type tls from 'node:tls';

export class H2Session {
  private session?: Promise<http2.ClientHttp2Session | undefined>;
  private unsupported = false;
  /** Open streams by session: a session holds the process up only while it carries a stream. */
  private readonly streams = new WeakMap<http2.ClientHttp2Session, number>();

  /** A stream for `options` (and `body`) on the shared session, or undefined when this server is reached over HTTP/1.1 only. */
  async open(options: https.RequestOptions, body?: Buffer | string): Promise<http2.ClientHttp2Stream | undefined> {
    if (this.unsupported || options.protocol !== 'https:' || !isOwnAgent(options.agent)) return undefined;
    const session = await (this.session ??= this.connect(options));
    if (!session) return undefined;
    const headers: http2.OutgoingHttpHeaders = { ':method': options.method ?? 'GET', ':path': options.path ?? '/' };
    for (const [k, v] of Object.entries(options.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v as string;
    if (options.auth) headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const stream = session.request(headers, { endStream: body === undefined });
    if (body !== undefined) stream.end(body);
    // Agents unref their idle sockets too: an idle session must not keep a command running.
    const open = (this.streams.get(session) ?? 0) + 1;
    this.streams.set(session, open);
    if (open === 1) session.ref();
    stream.once('close', () => {
      const left = this.streams.get(session)! - 1;
      this.streams.set(session, left);
      if (left === 0 && !session.destroyed) session.unref();
    });
    return stream;
  }

  private connect(options: https.RequestOptions): Promise<http2.ClientHttp2Session | undefined> {
    const agent = (options.agent as https.Agent & { options: tls.ConnectionOptions }).options;
    const host = String(options.hostname);
    const session = http2.connect(`https://${host.includes(':') ? `[${host}]` : host}:${options.port}`, {
      secureContext: agent.secureContext, servername: agent.servername, rejectUnauthorized: agent.rejectUnauthorized,
      // HTTP/2's default 64 KiB windows would let the server send 64 KiB per event-loop turn of this
      // process: a burst of pod events would queue at the server. client-go's flow windows instead.
      settings: { initialWindowSize: streamWindow },
    });
    const ready = new Promise<http2.ClientHttp2Session | undefined>((resolve) => {
      session.once('connect', () => {
        session.setLocalWindowSize(connectionWindow);
        session.unref();
        resolve(session);
      });
      session.on('error', (e: NodeJS.ErrnoException) => {
        if (!session.connecting && session.alpnProtocol === 'h2') return; // its streams report it
        // Failing before it connected: a server down is retried with the next watch; anything
        // else (no h2 in ALPN, a TLS failure) keeps this client on HTTP/1.1.
        if (!networkErrors.has(e.code ?? '')) this.unsupported = true;
        resolve(undefined);
      });
    });
    const forget = () => { if (this.session === ready) this.session = undefined; };
    session.once('close', forget);
    session.once('goaway', forget);
    return ready;
  }
}

/** client-go's HTTP/2 transport: 4 MiB per stream, 1 GiB per connection (only what is unread counts). */
const streamWindow = 4 << 20;
const connectionWindow = 1 << 30;
const networkErrors = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE']);

function isOwnAgent(agent: unknown): boolean {
  return typeof agent === 'object' && agent !== null && 'options' in agent && Boolean((agent as { options: tls.ConnectionOptions }).options.secureContext);
}

export const h2Requests = process.env.KRUISE_HTTP2_REQUESTS !== 'off';
