/**
 * The dashboard's HTTP routes under one base path (`/dashboard/`): sign-in, the page and its bundle,
 * the server-sent event stream of rows, and the optional actions (docs/design/dashboard.md §4-§6).
 * Written against the small request/response surface node:http and node:http2's compatibility API
 * share, so `kruise up` mounts it on the API server's port and `kruise dashboard` on its own.
 */
import type { DashboardState } from './state.js';
import { namespacedFamilies, type Family } from './summaries.js';
import { cookieValue, sessionCookie, type DashboardAuth, type DashboardUser } from './auth.js';
import { loadBundle, loginPage, shellPage } from './pages.js';
import { runAction } from './actions.js';
import type { Client } from '../client/client.js';
import { reviewChecker, selfChecker } from './access-checks.js';
import { filterRows, keyVisible, rowVisible, seesPods, VisibilityCache, type Visibility } from './access.js';
import type { Delta } from './state.js';

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

const heartbeatMs = 15_000;
const recheckMs = 30_000;
const summary = (v: Visibility) => [v.all, [...v.byResource].map(([k, x]) => [k, x === true ? true : [...x].sort()])];

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
      return stream(res, user, v, ns);
    }
    if (path === '/api/actions' && req.method === 'POST') {
      if (!o.actions) return json(res, 403, { message: 'actions are off: start with --dashboard-actions' });
      if (header(req, 'x-dashboard-action') !== '1') return json(res, 400, { message: 'missing x-dashboard-action header' });
      const result = await runAction(o.client, o.auth, user, JSON.parse((await readBody(req)).toString() || '{}'));
      return json(res, result.code, { message: result.message });
    }
    json(res, 404, { message: `no dashboard route ${req.method} ${url.pathname}` });
  };

  /** `namespace`: only that namespace's rows (the user may list pods there). */
  function stream(res: DashboardResponse, user: DashboardUser, first: Visibility, namespace?: string): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    const write = (text: string) => {
      if (o.sent) o.sent.bytes += Buffer.byteLength(text);
      res.write(text);
    };
    let v = first;
    const inNs = (family: Family, ns: string | undefined) => !namespace || !namespacedFamilies.has(family) || ns === namespace;
    const rowOk = (family: Family, row: unknown) => rowVisible(v, family, row as { ns?: string }) && inNs(family, (row as { ns?: string }).ns);
    const keyOk = (family: Family, key: string) => keyVisible(v, family, key) && inNs(family, family === 'workloads' || family === 'jobs' || family === 'others' ? key.split('/')[1] : key.split('/')[0]);
    const snapshot = () => {
      const s = o.state.snapshot();
      const timelines = Object.fromEntries(Object.entries(s.timelines).filter(([k]) => keyOk('workloads', k)));
      write(`event: snapshot\ndata: ${JSON.stringify({ rows: filterRows(v, s.rows, rowOk), timelines })}\n\n`);
    };
    const restricted = () => !v.all || namespace !== undefined;
    write(`event: hello\ndata: ${JSON.stringify({ user: user.username, actions: o.actions, namespaces: restricted() ? [...first.namespaces].sort() : undefined })}\n\n`);
    snapshot();
    const unsubscribe = o.state.subscribe((delta) => {
      const d: Delta = restricted() ? {
        upserts: filterRows(v, delta.upserts, rowOk), deletes: filterRows(v, delta.deletes, keyOk),
        timeline: Object.fromEntries(Object.entries(delta.timeline).filter(([k]) => keyOk('workloads', k))),
      } : delta;
      if (!restricted() || Object.values(d.upserts).some((l) => l.length) || Object.values(d.deletes).some((l) => l.length) || Object.keys(d.timeline).length) {
        write(`event: delta\ndata: ${JSON.stringify(d)}\n\n`);
      }
    });
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    // Rights and namespaces change: the stream asks again now and then, and starts over when the answer differs.
    const recheck = setInterval(() => void visibility.get(user, true).then((next) => {
      if (JSON.stringify(summary(next)) === JSON.stringify(summary(v))) return;
      v = next;
      snapshot();
    }, () => undefined), recheckMs);
    res.on('close', () => { unsubscribe(); clearInterval(heartbeat); clearInterval(recheck); });
  }
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
