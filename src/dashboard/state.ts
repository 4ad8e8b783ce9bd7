/**
 * The rows the page shows, kept from the watches, and the deltas since the last push: each watch
 * event becomes at most one changed row (rows that did not change send nothing), and the changes of
 * one push interval leave as one SSE message (docs/design/dashboard.md §3). A workload's rollout
 * timeline is a short list of its progress points, appended whenever its row changes.
 */
import { families, rowKey, type Family, type WorkloadRow } from './summaries.js';
import { compareStrings } from '../machinery/order.js';

export interface TimelinePoint { t: number; updated: number; ready: number; replicas: number; revision: string; paused: boolean; partition: string }
export interface Delta { upserts: Partial<Record<Family, unknown[]>>; deletes: Partial<Record<Family, string[]>>; timeline: Record<string, TimelinePoint> }
export interface Snapshot { rows: Record<Family, unknown[]>; timelines: Record<string, TimelinePoint[]> }

const maxEvents = 300;
const maxTimelinePoints = 120;

export class DashboardState {
  private readonly rows = new Map<Family, Map<string, { row: unknown; json: string }>>(families.map((f) => [f, new Map()]));
  private readonly timelines = new Map<string, TimelinePoint[]>();
  private pending: Delta = emptyDelta();
  private readonly listeners = new Set<(delta: Delta) => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `pushIntervalMs`: how long changes gather before one message leaves (0: every change at once). */
  constructor(private readonly pushIntervalMs = 50, private readonly now: () => number = Date.now) {}

  upsert(family: Family, row: object): void {
    const key = rowKey(family, row);
    const rows = this.rows.get(family)!;
    const json = JSON.stringify(row);
    if (rows.get(key)?.json === json) return;
    rows.set(key, { row, json });
    if (family === 'events' && rows.size > maxEvents) this.dropOldestEvents(rows);
    (this.pending.upserts[family] ??= []).push(row);
    if (this.pending.deletes[family]) this.pending.deletes[family] = this.pending.deletes[family]!.filter((k) => k !== key);
    if (family === 'workloads') this.recordProgress(key, row as WorkloadRow);
    this.changed();
  }

  delete(family: Family, row: object): void {
    const key = rowKey(family, row);
    if (!this.rows.get(family)!.delete(key)) return;
    (this.pending.deletes[family] ??= []).push(key);
    if (family === 'workloads') this.timelines.delete(key);
    this.changed();
  }

  snapshot(): Snapshot {
    const rows = Object.fromEntries(families.map((f) => [f, [...this.rows.get(f)!.values()].map((r) => r.row)])) as Record<Family, unknown[]>;
    return { rows, timelines: Object.fromEntries(this.timelines) };
  }

  keys(family: Family): string[] {
    return [...this.rows.get(family)!.keys()];
  }

  count(family: Family): number {
    return this.rows.get(family)!.size;
  }

  /** Subscribes to deltas; returns the unsubscribe. */
  subscribe(listener: (delta: Delta) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }

  private recordProgress(key: string, w: WorkloadRow): void {
    const points = this.timelines.get(key) ?? [];
    const point: TimelinePoint = { t: this.now(), updated: w.updated, ready: w.ready, replicas: w.replicas, revision: w.updateRevision, paused: w.paused, partition: w.partition };
    const last = points[points.length - 1];
    if (last && last.updated === point.updated && last.ready === point.ready && last.replicas === point.replicas && last.revision === point.revision && last.paused === point.paused && last.partition === point.partition) return;
    points.push(point);
    if (points.length > maxTimelinePoints) points.splice(0, points.length - maxTimelinePoints);
    this.timelines.set(key, points);
    this.pending.timeline[key] = point;
  }

  private dropOldestEvents(rows: Map<string, { row: unknown; json: string }>): void {
    const oldest = [...rows.entries()].sort((a, b) => compareStrings(String((a[1].row as { time: string }).time), String((b[1].row as { time: string }).time)))[0];
    if (oldest) {
      rows.delete(oldest[0]);
      (this.pending.deletes.events ??= []).push(oldest[0]);
    }
  }

  private changed(): void {
    // Nobody listening: a later subscriber starts from a snapshot, so the delta is not needed.
    if (this.listeners.size === 0) {
      this.pending = emptyDelta();
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), this.pushIntervalMs);
  }

  private flush(): void {
    this.timer = undefined;
    const delta = this.pending;
    this.pending = emptyDelta();
    for (const listener of this.listeners) listener(delta);
  }
}

function emptyDelta(): Delta {
  return { upserts: {}, deletes: {}, timeline: {} };
}
