/**
 * Group commit. Writes are applied to memory at call time and queued here in rv order; one loop
 * persists the queue in batches (one write + one fdatasync per batch), so writes that arrive while
 * a sync is in flight share the next one. After a batch is durable its events are published and
 * its promises resolved, in rv order. When a batch fails to persist (a full disk), it and every
 * write queued behind it are undone in memory, newest first, and rejected; the next write tries
 * the disk again (docs/design/storage.md §10).
 */
import type { StoreEvent, StoredObject } from './store.js';

interface Pending {
  /** WAL bytes for this write ('' for a no-op that only waits for earlier writes). */
  record: string;
  event?: StoreEvent;
  result: StoredObject;
  /** Puts memory back as it was before this write. */
  undo?: () => void;
  resolve: (stored: StoredObject) => void;
  reject: (err: Error) => void;
}

export interface CommitQueueOptions {
  /** Persists a batch durably; absent for a memory-only store. */
  persist?: (data: string) => Promise<void>;
  /** Runs before each batch, with nothing in flight (WAL rotation happens here). */
  beforeBatch: () => Promise<void>;
  /** Publishes one durable event. */
  publish: (event: StoreEvent) => void;
  /** Revision already durable at start. */
  durableRv: number;
  /** Called once failed writes are undone; returns the error they are rejected with. */
  onFailure: (err: Error) => Error;
}

export class CommitQueue {
  /** Highest rv whose write is durable and published. */
  durableRv: number;
  /** Why the last batch failed to persist; cleared by the next batch that persists. */
  failure: Error | undefined;
  private pending: Pending[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly options: CommitQueueOptions) {
    this.durableRv = options.durableRv;
  }

  /** Queues a write; resolves with `result` once it (and everything before it) is durable. */
  enqueue(record: string, event: StoreEvent | undefined, result: StoredObject, undo?: () => void): Promise<StoredObject> {
    if (!event && result.rv <= this.durableRv) return Promise.resolve(result);
    return new Promise((resolve, reject) => {
      this.pending.push({ record, event, result, undo, resolve, reject });
      this.running ??= this.run();
    });
  }

  /** Resolves when everything queued so far has been settled. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.pending.length > 0) await this.commit();
    } finally {
      this.running = undefined;
    }
  }

  private async commit(): Promise<void> {
    const { persist, publish, beforeBatch } = this.options;
    let batch: Pending[] = [];
    try {
      await beforeBatch();
      batch = this.pending;
      this.pending = [];
      const data = persist ? batch.map((p) => p.record).join('') : '';
      if (data) await persist!(data);
    } catch (err) {
      const failure = (this.failure = err instanceof Error ? err : new Error(String(err)));
      const failed = [...batch, ...this.pending];
      this.pending = [];
      for (let i = failed.length - 1; i >= 0; i--) failed[i]!.undo?.();
      const rejection = this.options.onFailure(failure);
      for (const p of failed) p.reject(rejection);
      return;
    }
    this.failure = undefined;
    for (const p of batch) {
      if (p.event) {
        this.durableRv = p.event.rv;
        publish(p.event);
      }
      p.resolve(p.result);
    }
  }
}
