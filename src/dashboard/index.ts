/**
 * The web dashboard's backend (docs/design/dashboard.md): watches that keep the rows, the routes
 * that serve them to signed-in browsers, and `serveDashboard` for `kruise dashboard`'s own listener.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '../client/client.js';
import { DashboardAuth, newLoginKey, type DashboardUser } from './auth.js';
import { dashboardRoutes, type DashboardRequest, type DashboardResponse } from './server.js';
import { DashboardState } from './state.js';
import { startWatches } from './watches.js';
import { logger } from '../machinery/log.js';

export type { DashboardUser } from './auth.js';
export type { DashboardRequest, DashboardResponse } from './server.js';
export { DashboardState } from './state.js';

export interface DashboardOptions {
  /** The client the watches and actions use: `kruise up`'s in-process one, or a kubeconfig's. */
  client: Client;
  /** A client acting as a signed-in user, for their own access reviews (docs/design/dashboard.md §11). */
  clientAs?: (user: DashboardUser) => Client | undefined;
  /** Pause/resume and partition buttons (`--dashboard-actions`); read-only otherwise. */
  actions?: boolean;
  /** `kruise dashboard`: a login key standing for the kubeconfig's user. */
  loginKey?: string;
  base?: string;
  secureCookie?: boolean;
  pushIntervalMs?: number;
}

export interface Dashboard {
  base: string;
  handle(req: DashboardRequest, res: DashboardResponse, apiUser?: DashboardUser): Promise<void>;
  state: DashboardState;
  sent: { bytes: number };
  waitForSync(): Promise<boolean>;
  stop(): void;
}

export function startDashboard(o: DashboardOptions): Dashboard {
  const base = o.base ?? '/dashboard/';
  const state = new DashboardState(o.pushIntervalMs);
  const watches = startWatches(o.client, state);
  const auth = new DashboardAuth(o.client, o.loginKey);
  const sent = { bytes: 0 };
  const routes = dashboardRoutes({ base, state, auth, client: o.client, clientAs: o.clientAs, actions: o.actions ?? false, secureCookie: o.secureCookie ?? true, keyHint: Boolean(o.loginKey), sent });
  const log = logger('dashboard');
  return {
    base, state, sent,
    handle: (req, res, apiUser) => routes(req, res, apiUser).catch((e) => {
      log.error({ err: e }, 'dashboard request failed');
      try { res.writeHead(500, { 'content-type': 'application/json' }); res.end(JSON.stringify({ message: String(e) })); } catch { /* headers gone */ }
    }),
    waitForSync: () => watches.waitForSync(),
    stop: () => { watches.stop(); state.stop(); },
  };
}

export interface ServedDashboard { url: string; loginKey: string; dashboard: Dashboard; stop(): Promise<void> }

/** `kruise dashboard`: plain HTTP on a loopback address; the login key goes in the printed URL. */
export async function serveDashboard(o: { client: Client; host: string; port: number; actions?: boolean; pushIntervalMs?: number; clientAs?: DashboardOptions['clientAs'] }): Promise<ServedDashboard> {
  const loginKey = newLoginKey();
  const dashboard = startDashboard({ client: o.client, actions: o.actions, loginKey, secureCookie: false, pushIntervalMs: o.pushIntervalMs, clientAs: o.clientAs });
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith(dashboard.base)) {
      res.writeHead(302, { location: dashboard.base });
      return void res.end();
    }
    void dashboard.handle(req, res);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(o.port, o.host, () => resolve()); });
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}${dashboard.base}`, loginKey, dashboard,
    stop: () => new Promise((resolve) => { dashboard.stop(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
