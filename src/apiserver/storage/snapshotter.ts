/**
 * Decides when to snapshot and runs it: between WAL batches, once the current WAL file passes
 * `everyBytes`, it starts a fresh WAL file, captures the (immutable) objects and revision, writes
 * the snapshot in the background and then deletes the WAL files it covers.
 */
import type { StoredObject } from './store.js';
import { writeSnapshot } from './snapshot.js';
import type { WalWriter } from './wal.js';

export interface SnapshotterOptions {
  dir: string;
  wal: WalWriter;
  everyBytes: number;
  onError: (err: Error) => void;
}

export class Snapshotter {
  /** Snapshots completed. */
  count = 0;
  private running: Promise<void> | undefined;
  private retryAtBytes = 0;

  constructor(private readonly options: SnapshotterOptions) {}

  /** Call only between WAL appends; `capture` returns the current revision and objects. */
  async maybeStart(capture: () => { revision: number; objects: StoredObject[] }): Promise<void> {
    const { wal, everyBytes, dir, onError } = this.options;
    if (this.running || wal.bytes <= Math.max(everyBytes, this.retryAtBytes)) return;
    try {
      await wal.rotate(capture().revision + 1);
    } catch (err) {
      // Keep appending to the current file and try again after another everyBytes.
      this.retryAtBytes = wal.bytes + everyBytes;
      return onError(asError(err));
    }
    this.retryAtBytes = 0;
    // Writes applied so far are in the older files or still pending (bound for the new file), so
    // every record in the older files is covered by a capture taken now.
    const boundary = wal.fileName;
    const { revision, objects } = capture();
    this.running = writeSnapshot(dir, revision, objects, boundary)
      .then(() => wal.removeFilesBefore(boundary))
      .then(
        () => void this.count++,
        (err: unknown) => onError(asError(err)),
      )
      .finally(() => (this.running = undefined));
  }

  /** Resolves when no snapshot is being written. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
