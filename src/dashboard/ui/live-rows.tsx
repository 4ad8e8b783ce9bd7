/**
 * The page's copy of the backend's rows: a snapshot, then deltas from the event stream, applied in
 * batches once per animation frame (docs/design/dashboard.md §5). EventSource reconnects by itself;
 * each reconnect starts from a fresh snapshot.
 */
import type { EventRow, Family, JobRow, NodeRow, PodRow, SidecarSetRow, WorkloadRow } from '../summaries.js';
import type { OtherRow } from '../other-kinds.js';
import type { Delta, Snapshot, TimelinePoint } from '../state.js';

export interface Rows {
  namespaces: Map<string, { name: string; phase: string }>;
  nodes: Map<string, NodeRow>;
  pods: Map<string, PodRow>;
  workloads: Map<string, WorkloadRow>;
  sidecarsets: Map<string, SidecarSetRow>;
  jobs: Map<string, JobRow>;
  others: Map<string, OtherRow>;
  events: Map<string, EventRow>;
}
/** `namespaces`: the ones a restricted user may see (absent: all). */
export interface Live { rows: Rows; timelines: Map<string, TimelinePoint[]>; user: string; actions: boolean; namespaces?: string[]; connected: boolean; version: number; snapshotAt: number }

export function keyOf(family: Family, row: any): string {
  if (family === 'workloads' || family === 'jobs' || family === 'others') return `${row.kind}/${row.ns}/${row.name}`;
  return row.ns ? `${row.ns}/${row.name ?? row.uid}` : String(row.name ?? row.uid);
}

function emptyRows(): Rows {
  return { namespaces: new Map(), nodes: new Map(), pods: new Map(), workloads: new Map(), sidecarsets: new Map(), jobs: new Map(), others: new Map(), events: new Map() };
}

export function connect(base: string, onChange: (live: Live) => void): () => void {
  const live: Live = { rows: emptyRows(), timelines: new Map(), user: '', actions: false, connected: false, version: 0, snapshotAt: 0 };
  let queued: Delta[] = [];
  let frame = 0;
  const publish = () => { live.version++; onChange(live); };
  const applyQueued = () => {
    frame = 0;
    for (const d of queued) apply(live, d);
    queued = [];
    publish();
  };
  const source = new EventSource(`${base}api/stream`);
  source.addEventListener('hello', (e) => {
    const hello = JSON.parse((e as MessageEvent).data) as { user: string; actions: boolean; namespaces?: string[] };
    live.user = hello.user;
    live.actions = hello.actions;
    live.namespaces = hello.namespaces;
  });
  source.addEventListener('snapshot', (e) => {
    const arrived = performance.now();
    const snap = JSON.parse((e as MessageEvent).data) as Snapshot;
    live.rows = emptyRows();
    for (const [family, rows] of Object.entries(snap.rows)) {
      const map = live.rows[family as Family] as Map<string, unknown>;
      for (const row of rows) map.set(keyOf(family as Family, row), row);
    }
    live.timelines = new Map(Object.entries(snap.timelines));
    live.connected = true;
    live.snapshotAt = arrived;
    queued = [];
    publish();
  });
  source.addEventListener('delta', (e) => {
    queued.push(JSON.parse((e as MessageEvent).data) as Delta);
    frame ||= requestAnimationFrame(applyQueued);
  });
  source.onerror = () => {
    live.connected = false;
    publish();
    // 401 after the session ended: back to the sign-in page.
    if (source.readyState === EventSource.CLOSED) location.reload();
  };
  return () => source.close();
}

function apply(live: Live, d: Delta): void {
  for (const [family, keys] of Object.entries(d.deletes)) {
    const map = live.rows[family as Family] as Map<string, unknown>;
    for (const k of keys ?? []) map.delete(k);
    if (family === 'workloads') for (const k of keys ?? []) live.timelines.delete(k);
  }
  for (const [family, rows] of Object.entries(d.upserts)) {
    const map = live.rows[family as Family] as Map<string, unknown>;
    for (const row of rows ?? []) map.set(keyOf(family as Family, row), row);
  }
  for (const [key, point] of Object.entries(d.timeline)) {
    const points = live.timelines.get(key) ?? [];
    live.timelines.set(key, [...points.slice(-119), point]);
  }
}
