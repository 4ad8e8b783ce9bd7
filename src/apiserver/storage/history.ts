/**
 * The window of committed events that watches resume from. Events arrive in rv order; the window
 * keeps at most `maxEvents` of them and drops those older than `maxAgeMs`. The oldest event kept
 * decides which revisions can still be watched from; everything before it answers Expired.
 */
import type { StoreEvent } from './store.js';

export interface HistoryOptions {
  maxEvents: number;
  maxAgeMs: number;
  now: () => number;
}

export class History {
  private events: (StoreEvent | undefined)[] = [];
  private times: number[] = [];
  private head = 0;

  constructor(private readonly options: HistoryOptions) {}

  get size(): number {
    return this.events.length - this.head;
  }

  append(event: StoreEvent): void {
    this.events.push(event);
    this.times.push(this.options.now());
    this.trim();
  }

  /** rv of the oldest event kept, or undefined when the window is empty. */
  oldestRv(): number | undefined {
    this.trim();
    return this.size > 0 ? this.events[this.head]!.rv : undefined;
  }

  /** Visits kept events with rv > `afterRv`, oldest first. */
  forEachAfter(afterRv: number, visit: (event: StoreEvent) => void): void {
    this.trim();
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid]!.rv <= afterRv) lo = mid + 1;
      else hi = mid;
    }
    const end = this.events.length;
    for (let i = lo; i < end; i++) visit(this.events[i]!);
  }

  private trim(): void {
    const { maxEvents, maxAgeMs } = this.options;
    const cutoff = this.options.now() - maxAgeMs;
    while (this.size > maxEvents || (this.size > 0 && this.times[this.head]! < cutoff)) {
      this.events[this.head] = undefined; // release the objects for GC
      this.head++;
    }
    // Drop the consumed front only now and then, so trimming stays O(1) amortized.
    if (this.head > 4096 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
