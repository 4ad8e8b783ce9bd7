/**
 * The dashboard's HTTP routes under one base path (`/dashboard/`): sign-in, the page and its bundle,
 * the server-sent event stream of rows, and the optional actions (docs/design/dashboard.md §4-§6).
 * Written against the small request/response surface node:http and node:http2's compatibility API
 * share, so `kruise up` mounts it on the API server's port and `kruise dashboard` on its own.
 */
import type { DashboardState } from './state.js';
import { cookieValue, sessionCookie, type DashboardAuth, type DashboardUser } from './auth.js';
import { loadBundle, loginPage, shellPage } from './pages.js';
import { runAction } from './actions.js';
import type { Client } from '../client/client.js';
import { reviewChecker, selfChecker } from './access-checks.js';
import { seesPods, VisibilityCache } from './access.js';
import { openStream } from './stream.js';

export interface DashboardRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}
export interface DashboardResponse {
  writeHead(code: number, headers?: Record<string, string | string[]>): unknown;
  write(chunk: string): unknown;
  end(chunk: string): unknown;
  end(): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface DashboardRoutesOptions {
  base: string;
  state: DashboardState;
  auth: DashboardAuth;
  client: Client;
  actions: boolean;
  secureCookie: boolean;
  keyHint: boolean;
  /** A client acting as `user` (their token, or their authenticated identity in-process), if one can be had. */
  clientAs?: (user: DashboardUser) => Client | undefined;
  /** Bytes written to event streams (the benchmark reads it). */
  sent?: { bytes: number };
}


export function dashboardRoutes(o: DashboardRoutesOptions) {
  const bundle = loadBundle();
  const checkerFor = (user: DashboardUser) => {
    const asUser = user.kubeconfig ? undefined : o.clientAs?.(user);
    return asUser ? selfChecker(asUser) : reviewChecker(o.auth, user);
  };
  const visibility = new VisibilityCache(checkerFor, () => o.state.keys('namespaces'));
  const mayLook = async (user: DashboardUser) => seesPods(await visibility.get(user));
  const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
  const json = (res: DashboardResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const cookie = (value: string, maxAge: number) =>
    `${sessionCookie}=${value}; Path=${o.base}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${o.secureCookie ? '; Secure' : ''}`;

  /** `apiUser`: the user the API server already authenticated on this request, if any. */
  return async function handle(req: DashboardRequest, res: DashboardResponse, apiUser?: DashboardUser): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const path = url.pathname.slice(o.base.length - 1) || '/';
    if (path === '/login' && req.method === 'POST') {
      const token = new URLSearchParams((await readBody(req)).toString()).get('token')?.trim() ?? '';
      const user = await o.auth.login(token);
      if ('refused' in user) return void (res.writeHead(401, html), res.end(loginPage(o.base, user.refused, o.keyHint)));
      if (!(await mayLook(user))) {
        return void (res.writeHead(403, html), res.end(loginPage(o.base, `${user.username} may not list pods in any namespace`, o.keyHint)));
      }
      res.writeHead(303, { location: o.base, 'set-cookie': cookie(o.auth.startSession(user), 43200) });
      return void res.end();
    }
    const sessionId = cookieValue(header(req, 'cookie'), sessionCookie);
    const user = o.auth.userOf(sessionId) ?? (apiUser && (await mayLook(apiUser)) ? apiUser : undefined);
    if (!user) {
      if (path.startsWith('/api/')) return json(res, 401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      res.writeHead(401, html);
      return void res.end(loginPage(o.base, undefined, o.keyHint));
    }
    if (path === '/logout' && req.method === 'POST') {
      o.auth.endSession(sessionId);
      res.writeHead(303, { location: o.base, 'set-cookie': cookie('', 0) });
      return void res.end();
    }
    if (path === '/' && req.method === 'GET') return void (res.writeHead(200, html), res.end(shellPage(o.base)));
    if ((path === '/app.js' || path === '/app.css') && req.method === 'GET') {
      if (!bundle) return json(res, 500, { message: 'the dashboard bundle is missing: run `npm run build`' });
      res.writeHead(200, { 'content-type': path === '/app.js' ? 'text/javascript' : 'text/css', 'cache-control': 'no-cache' });
      return void res.end(path === '/app.js' ? bundle.js : bundle.css);
    }
    if (path === '/api/stream' && req.method === 'GET') {
      const v = await visibility.get(user, true);
      const ns = url.searchParams.get('namespace') ?? undefined;
      if (ns !== undefined && !seesPods(v, ns)) return json(res, 403, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${user.username} may not list pods in namespace ${ns}`, reason: 'Forbidden', code: 403 });
      return openStream(res, { state: o.state, actions: o.actions, sent: o.sent, visibility }, user, v, ns);
    }
    if (path === '/api/actions' && req.method === 'POST') {
      if (!o.actions) return json(res, 403, { message: 'actions are off: start with --dashboard-actions' });
      if (header(req, 'x-dashboard-action') !== '1') return json(res, 400, { message: 'missing x-dashboard-action header' });
      const result = await runAction(o.client, o.auth, user, JSON.parse((await readBody(req)).toString() || '{}'));
      return json(res, result.code, { message: result.message });
    }
    json(res, 404, { message: `no dashboard route ${req.method} ${url.pathname}` });
  };
}

function header(req: DashboardRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join('; ') : v;
}

function readBody(req: DashboardRequest): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c) => { size += c.length; if (size < 65536) chunks.push(c); });
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
