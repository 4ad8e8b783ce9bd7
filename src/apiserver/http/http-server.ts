/**
 * HTTPS transport: one TLS port speaking h2 and HTTP/1.1 (ALPN), client certificates requested but
 * not required (token users share the port), authentication, body limits, JSON responses and
 * streamed watches whose headers are flushed before the first event.
 */
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { errors } from '../../machinery/errors.js';
import { anonymousUser, isAnonymousAllowed, type Authenticator } from '../auth/authn.js';
import { type ApiHandler, errorResponse } from './handler.js';
import type { ApiRequest, ApiResponse, UserInfo } from '../../api/request.js';
import { promRegistry } from './metrics.js';
import { logger } from '../../machinery/log.js';
import { jsonText } from '../../machinery/json-text.js';

const log = logger('apiserver');

type Req = http2.Http2ServerRequest;
type Res = http2.Http2ServerResponse;

export const maxBodyBytes = 3 * 1024 * 1024;

export interface HttpServerOptions {
  handler: ApiHandler;
  authenticator: Authenticator;
  tls: { certPem: string; keyPem: string; caPem: string };
  host: string;
  port: number;
  /**
   * Anonymous requests: `authorize` lets them through as `system:anonymous` for the authorizer to
   * decide (kube's RBAC mode); `listed-paths` answers 401 except on the paths isAnonymousAllowed lists.
   */
  anonymous: 'authorize' | 'listed-paths';
  /**
   * Handlers served beside the API under a path prefix ending in `/` (the dashboard under
   * `/dashboard/`), given the user this server authenticated, if any; they answer 401 themselves.
   */
  mounts?: Map<string, MountedHandler>;
  /** HTTP/1.1 upgrades (exec, attach, port-forward), once authenticated; without it they are refused. */
  upgrade?: (req: import('node:http').IncomingMessage, socket: import('node:stream').Duplex, head: Buffer, user: UserInfo) => void;
}

export type MountedHandler = (req: Req, res: Res, user: UserInfo | undefined) => void;

export interface HttpServer {
  port: number;
  /** Ends every open watch cleanly, as kube-apiserver does when a watch times out. */
  endWatches(): void;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const server = http2.createSecureServer({
    cert: options.tls.certPem, key: options.tls.keyPem, ca: options.tls.caPem,
    allowHTTP1: true, requestCert: true, rejectUnauthorized: false,
    settings: { maxConcurrentStreams: 1000 },
  });
  const open = new Set<() => void>();
  server.on('request', (req: Req, res: Res) => {
    serve(options, req, res, open).catch((e) => {
      log.error({ err: e }, 'request failed');
      if (!res.headersSent) send(res, errorResponse(e));
    });
  });
  server.on('sessionError', () => undefined);
  server.on('upgrade', (req: import('node:http').IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    void authenticateUpgrade(options, req).then((user) => {
      if (user && options.upgrade) return options.upgrade(req, socket, head, user);
      const body = JSON.stringify(errors.unauthorized().toStatus());
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return {
    port: (server.address() as AddressInfo).port,
    endWatches: () => { for (const stop of [...open]) stop(); },
    close: () => new Promise<void>((resolve) => {
      for (const stop of open) stop();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
}

async function serve(options: HttpServerOptions, req: Req, res: Res, open: Set<() => void>): Promise<void> {
  const url = new URL(req.url, 'https://localhost');
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!k.startsWith(':')) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const peer = (req.socket as TLSSocket).getPeerCertificate?.(false);
  const check = await options.authenticator.check({ headers, peerCertificateDer: peer && peer.raw ? peer.raw : undefined });
  const mounted = mountFor(options.mounts, url.pathname);
  if (mounted) return mounted(req, res, check.status === 'authenticated' ? check.user : undefined);
  const anonymousRefused = check.status === 'anonymous' && options.anonymous === 'listed-paths' && !isAnonymousAllowed(url.pathname, req.method);
  if (check.status === 'rejected' || anonymousRefused) return send(res, errorResponse(errors.unauthorized()));
  const user = check.status === 'authenticated' ? check.user : anonymousUser;
  if (url.pathname === '/metrics') return sendMetrics(options.handler, res, { method: req.method, path: url.pathname, query: url.searchParams, headers, user });
  let body: Buffer | undefined;
  try {
    body = await readBody(req);
  } catch (e) {
    return send(res, errorResponse(e));
  }
  const apiReq: ApiRequest = { method: req.method, path: url.pathname, query: url.searchParams, headers, body, user: { ...user, groups: [...user.groups] } };
  const response = await options.handler.handle(apiReq);
  if (response.watch) return stream(res, response, open);
  send(res, response, req.method === 'HEAD');
}

function mountFor(mounts: Map<string, MountedHandler> | undefined, pathname: string): MountedHandler | undefined {
  if (!mounts) return undefined;
  for (const [prefix, handler] of mounts) if (pathname.startsWith(prefix) || pathname === prefix.slice(0, -1)) return handler;
  return undefined;
}

/** The user of an upgrade request, as for any request; undefined when refused. */
async function authenticateUpgrade(options: HttpServerOptions, req: import('node:http').IncomingMessage): Promise<UserInfo | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const peer = (req.socket as TLSSocket).getPeerCertificate?.(false);
  const check = await options.authenticator.check({ headers, peerCertificateDer: peer && peer.raw ? peer.raw : undefined });
  if (check.status === 'rejected' || (check.status === 'anonymous' && options.anonymous === 'listed-paths')) return undefined;
  return check.status === 'authenticated' ? check.user : anonymousUser;
}

/** /metrics, served here (not by the handler) but authorized like any non-resource path. */
async function sendMetrics(handler: ApiHandler, res: Res, req: ApiRequest): Promise<void> {
  try {
    handler.admit(req);
  } catch (e) {
    return send(res, errorResponse(e));
  }
  send(res, { code: 200, text: await promRegistry.metrics(), contentType: promRegistry.contentType });
}

function readBody(req: Req): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) {
        reject(errors.requestEntityTooLarge('the request body is too large: limit is 3MB'));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

function responseHeaders(r: ApiResponse, contentType: string): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = { 'content-type': contentType, 'cache-control': 'no-cache, private', ...(r.headers ?? {}) };
  if (r.warnings?.length) h['warning'] = r.warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  return h;
}

function send(res: Res, r: ApiResponse, headOnly = false): void {
  const text = r.raw ?? r.text ?? (r.body === undefined ? '' : jsonText(r.body));
  const contentType = r.contentType ?? 'application/json';
  res.writeHead(r.code, responseHeaders(r, contentType));
  if (headOnly) res.end();
  else res.end(text);
}

function stream(res: Res, r: ApiResponse, open: Set<() => void>): void {
  res.writeHead(200, responseHeaders(r, r.contentType ?? 'application/json'));
  // Clients block on response headers (kubectl wait / rollout status), so they must leave now.
  const flush = (res as unknown as { flushHeaders?: () => void }).flushHeaders;
  if (flush) flush.call(res);
  else res.write('');
  let ended = false;
  // Events of one loop turn leave in one write: a burst of store writes costs the socket (and the
  // watcher's wake-ups) one syscall per turn instead of one per event.
  const pending: Array<string | Buffer> = [];
  const flushPending = () => {
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? pending[0]! : joinChunks(pending);
    pending.length = 0;
    if (!ended) res.write(chunk);
  };
  const write = (line: string | Buffer) => {
    if (ended) return;
    if (pending.push(line) === 1) setImmediate(flushPending);
  };
  const end = (closed = false) => {
    if (ended) return;
    if (!closed) flushPending();
    ended = true;
    open.delete(stopAll);
    stop();
    res.end();
  };
  const stop = r.watch!.start(write, end);
  const stopAll = () => end();
  open.add(stopAll);
  res.on('close', () => end(true));
}

/** JSON lines join as text; protobuf frames as bytes. */
function joinChunks(chunks: Array<string | Buffer>): string | Buffer {
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
}
