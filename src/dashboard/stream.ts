/**
 * One browser's server-sent event stream (docs/design/dashboard.md §3, §11): `hello`, a snapshot of
 * the rows its user may see, then the part of each delta they may see. The user's rights are asked
 * again every 30 s; when the answer changes the stream starts over with a new snapshot.
 */
import { filterRows, keyNamespace, keyVisible, rowVisible, type Visibility, type VisibilityCache } from './access.js';
import type { DashboardUser } from './auth.js';
import type { DashboardResponse } from './server.js';
import type { DashboardState, Delta } from './state.js';
import { namespacedFamilies, type Family } from './summaries.js';

const heartbeatMs = 15_000;
const recheckMs = 30_000;
const summary = (v: Visibility) => JSON.stringify([v.all, [...v.byResource].map(([k, x]) => [k, x === true ? true : [...x].sort()])]);

export interface StreamContext { state: DashboardState; actions: boolean; visibility: VisibilityCache; sent?: { bytes: number } }

/** `namespace`: only that namespace's rows (the caller checked the user may list pods there). */
export function openStream(res: DashboardResponse, o: StreamContext, user: DashboardUser, first: Visibility, namespace?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  const write = (text: string) => {
    if (o.sent) o.sent.bytes += Buffer.byteLength(text);
    res.write(text);
  };
  let v = first;
  const inNs = (family: Family, ns: string | undefined) => !namespace || !namespacedFamilies.has(family) || ns === namespace;
  const rowOk = (family: Family, row: unknown) => rowVisible(v, family, row as { ns?: string }) && inNs(family, (row as { ns?: string }).ns);
  const keyOk = (family: Family, key: string) => keyVisible(v, family, key) && inNs(family, keyNamespace(family, key));
  const restricted = () => !v.all || namespace !== undefined;
  const snapshot = () => {
    const s = o.state.snapshot();
    const timelines = Object.fromEntries(Object.entries(s.timelines).filter(([k]) => keyOk('workloads', k)));
    write(`event: snapshot\ndata: ${JSON.stringify({ rows: filterRows(v, s.rows, rowOk), timelines })}\n\n`);
  };
  write(`event: hello\ndata: ${JSON.stringify({ user: user.username, actions: o.actions, namespaces: restricted() ? [...first.namespaces].sort() : undefined })}\n\n`);
  snapshot();
  const unsubscribe = o.state.subscribe((delta) => {
    if (!restricted()) return write(`event: delta\ndata: ${JSON.stringify(delta)}\n\n`);
    const d: Delta = {
      upserts: filterRows(v, delta.upserts, rowOk), deletes: filterRows(v, delta.deletes, keyOk),
      timeline: Object.fromEntries(Object.entries(delta.timeline).filter(([k]) => keyOk('workloads', k))),
    };
    const empty = !Object.values(d.upserts).some((l) => l.length) && !Object.values(d.deletes).some((l) => l.length) && Object.keys(d.timeline).length === 0;
    if (!empty) write(`event: delta\ndata: ${JSON.stringify(d)}\n\n`);
  });
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
  const recheck = setInterval(() => void o.visibility.get(user, true).then((next) => {
    if (summary(next) === summary(v)) return;
    v = next;
    snapshot();
  }, () => undefined), recheckMs);
  res.on('close', () => { unsubscribe(); clearInterval(heartbeat); clearInterval(recheck); });
}
