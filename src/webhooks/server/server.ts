/**
 * The manager's webhook HTTPS server: POST admission paths (AdmissionReview v1/v1beta1), POST
 * `/convert` (ConversionReview) and GET `/healthz`. Certificates come from the cert dir
 * (`cert.pem`, `key.pem`) and are reloaded when they change; until the first pair exists every
 * TLS handshake fails. Malformed bodies get 400; a handler never takes the server down.
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { AdmissionReview } from '../../api/admission.js';
import { logger, type Logger } from '../../machinery/log.js';
import { convertReview, parseConversionReview, type ObjectConverter } from '../conversion/convert.js';
import { denied, type AdmissionHandler } from '../handlers.js';
import { CertFiles } from './cert-files.js';
import { createWebhookMetrics } from './metrics.js';
import { parseAdmissionReview } from './review.js';

export interface WebhookServerOptions {
  /** Address to listen on (default 0.0.0.0); port 0 picks a free port. */
  host?: string;
  port?: number;
  certDir: string;
  /** Admission handlers by path (aliases included). */
  handlers: Map<string, AdmissionHandler>;
  converter?: ObjectConverter;
  registry?: Registry;
  /** How often the cert dir is checked for new files (default 10 s); `reloadCerts()` checks at once. */
  certCheckIntervalMs?: number;
  log?: Logger;
}

export interface WebhookServer {
  host: string;
  port: number;
  registry: Registry;
  /** Re-reads the cert dir; true when a (new) certificate is being served. */
  reloadCerts(): Promise<boolean>;
  close(): Promise<void>;
}

const maxBodyBytes = 8 * 1024 * 1024;

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const log = options.log ?? logger('webhook-server');
  const metrics = createWebhookMetrics(options.registry);
  const server = https.createServer({});
  const certs = new CertFiles(options.certDir, (pair) => server.setSecureContext({ key: pair.keyPem, cert: pair.certPem }));
  await certs.reload().catch(() => log.info({ certDir: options.certDir }, 'No webhook certificate yet: TLS handshakes fail until one is written'));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res, options, metrics.begin).catch((e: unknown) => {
      log.error({ err: e, path: req.url }, 'Webhook request failed');
      if (!res.headersSent) reply(res, 500, { message: String(e) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '0.0.0.0', () => resolve());
  });
  const timer = setInterval(() => void certs.reload().catch((e: unknown) => log.error({ err: e }, 'Reloading webhook certificates failed')), options.certCheckIntervalMs ?? 10_000);
  timer.unref();
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    registry: metrics.registry,
    reloadCerts: () => certs.reload(),
    close: () => new Promise((resolve) => {
      clearInterval(timer);
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

type Begin = (webhook: string) => (code: number) => void;

async function serve(req: IncomingMessage, res: ServerResponse, options: WebhookServerOptions, begin: Begin): Promise<unknown> {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/healthz') return req.method === 'GET' || req.method === 'HEAD' ? replyText(res, 200, 'ok') : replyText(res, 405, 'method not allowed\n');
  const handler = options.handlers.get(path);
  if (path !== '/convert' && !handler) return replyText(res, 404, '404 page not found\n');
  if (req.method !== 'POST') return replyText(res, 405, 'method not allowed\n');
  const done = begin(path);
  const code = await (path === '/convert' ? serveConversion(req, res, options.converter) : serveAdmission(req, res, handler!));
  done(code);
}

async function serveConversion(req: IncomingMessage, res: ServerResponse, converter?: ObjectConverter): Promise<number> {
  let review;
  try {
    review = parseConversionReview(await readJson(req));
  } catch (e) {
    return replyText(res, 400, `${(e as Error).message}\n`);
  }
  return reply(res, 200, convertReview(review, converter));
}

async function serveAdmission(req: IncomingMessage, res: ServerResponse, handler: AdmissionHandler): Promise<number> {
  let review;
  try {
    review = parseAdmissionReview(await readJson(req));
  } catch (e) {
    const response = denied({ uid: '' }, 400, (e as Error).message);
    return reply(res, 400, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response } satisfies AdmissionReview);
  }
  const response = await handler(review.request);
  return reply(res, 200, { apiVersion: review.apiVersion, kind: 'AdmissionReview', response } satisfies AdmissionReview);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'];
  if (type && !/^application\/json\b/.test(type)) throw new Error(`contentType=${type}, expected application/json`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new Error('request body too large');
    chunks.push(chunk);
  }
  if (size === 0) throw new Error('request body is empty');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (e) {
    throw new Error(`couldn't decode the request body: ${(e as Error).message}`);
  }
}

function reply(res: ServerResponse, code: number, body: unknown): number {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
  return code;
}

function replyText(res: ServerResponse, code: number, text: string): number {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(text);
  return code;
}
