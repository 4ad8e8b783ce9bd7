/**
 * The manager's probe and metrics endpoint: `/healthz` (the process is up), `/readyz` (caches have
 * synced) and `/metrics` (Prometheus text). Plain HTTP on a loopback address by default; port 0
 * picks a free port, reported back in `port`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthServerOptions {
  host?: string;
  port?: number;
  ready: () => boolean;
  /** Whether `/healthz` passes (default always; kruise-daemon's fails until its informers synced). */
  healthy?: () => boolean;
  registry: Registry;
}

export interface HealthServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (code: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'content-type': type, 'x-content-type-options': 'nosniff' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    if (path === '/healthz' || path === '/livez') {
      return (options.healthy?.() ?? true) ? reply(200, 'ok') : reply(500, '[-]informers-synced failed: caches not synced yet\nhealthz check failed\n');
    }
    if (path === '/readyz') return options.ready() ? reply(200, 'ok') : reply(500, '[-]informers-synced failed: caches not synced yet\nreadyz check failed\n');
    if (path === '/metrics') {
      options.registry.metrics().then((text) => reply(200, text, options.registry.contentType), (e: Error) => reply(500, `${e.message}\n`));
      return;
    }
    reply(404, '404 page not found\n');
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
