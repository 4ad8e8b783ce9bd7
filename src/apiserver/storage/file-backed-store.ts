/**
 * The Store implementation behind createFileStore: memory state, group-committed WAL and
 * background snapshots wired together. A write is applied to memory and given its rv at call time
 * (rv order is call order); its promise resolves and its event is published once it is durable.
 */
import type { KObject } from '../../api/meta.js';
import { StoreError, type ListResult, type StoreEvent, type StoredObject, type WatchHandle } from './store.js';
import type { FileStore, FileStoreStats, ResolvedFileStoreOptions } from './file-store.js';
import { CommitQueue } from './commit-queue.js';
import type { History } from './history.js';
import { equalIgnoringResourceVersion, withResourceVersion } from './json-equal.js';
import type { Keyspace, ListOptions } from './keyspace.js';
import { Snapshotter } from './snapshotter.js';
import { deleteRecord, probeDisk, putRecord, type WalWriter } from './wal.js';
import type { DirLock } from './dir-lock.js';
import { Watchers } from './watchers.js';
import { rememberJsonText } from '../../machinery/json-text.js';

export class FileBackedStore implements FileStore {
  private readonly watchers = new Watchers();
  private readonly queue: CommitQueue;
  private closing: Promise<void> | undefined;
  private readonly snapshotter: Snapshotter | undefined;
  private probeTimer: NodeJS.Timeout | undefined;

  constructor(
    options: ResolvedFileStoreOptions,
    private readonly keyspace: Keyspace,
    private readonly history: History,
    private rev: number,
    private readonly wal: WalWriter | undefined,
    private readonly lock?: DirLock,
  ) {
    const { dir, snapshotEveryBytes: everyBytes, onSnapshotError: onError } = options;
    this.snapshotter = wal && new Snapshotter({ dir: dir!, wal, everyBytes, onError });
    const capture = () => ({ revision: this.rev, objects: this.keyspace.all() });
    this.queue = new CommitQueue({
      persist: wal && ((data) => wal.append(data)),
      beforeBatch: async () => this.snapshotter?.maybeStart(capture),
      publish: (event) => {
        this.history.append(event);
        this.watchers.deliver(event);
      },
      durableRv: rev,
      onFailure: (err) => {
        // Every write not yet durable was undone, so the revision counter goes back with them.
        this.rev = this.queue.durableRv;
        if (!this.probeTimer) options.onWriteError(err); // once per outage, not once per write
        this.probeUntilHealthy(dir!);
        return new StoreError('Unavailable', `storage write failed, nothing was written: ${err.message}`);
      },
    });
  }

  /** Why writes are failing (a full or failing disk), or undefined while they persist. */
  failure(): string | undefined {
    return this.queue.failure?.message;
  }

  revision(): number {
    return this.rev;
  }

  oldestWatchableRevision(): number {
    return this.history.oldestRv() ?? this.queue.durableRv + 1;
  }

  get(key: string): StoredObject | undefined {
    return this.keyspace.get(key);
  }

  list(prefix: string, options?: ListOptions): ListResult & { remaining: number } {
    return { ...this.keyspace.list(prefix, options), rv: this.rev };
  }

  create(key: string, object: KObject): Promise<StoredObject> {
    const refused = this.refuseWrite();
    if (refused) return Promise.reject(refused);
    if (this.keyspace.get(key)) return Promise.reject(new StoreError('AlreadyExists', `key ${key} already exists`));
    return this.put(key, object, undefined);
  }

  update(key: string, object: KObject, expectedRv?: number): Promise<StoredObject> {
    const current = this.checkPrecondition(key, expectedRv);
    if (current instanceof Error) return Promise.reject(current);
    if (equalIgnoringResourceVersion(object, current.object)) return this.queue.enqueue('', undefined, current);
    return this.put(key, object, current);
  }

  delete(key: string, expectedRv?: number): Promise<StoredObject> {
    const current = this.checkPrecondition(key, expectedRv);
    if (current instanceof Error) return Promise.reject(current);
    const rv = ++this.rev;
    const last = withResourceVersion(current.object, String(rv));
    const undo = this.keyspace.undoFor(key);
    this.keyspace.delete(key);
    const event: StoreEvent = { type: 'DELETED', key, object: last, prevObject: current.object, rv };
    return this.queue.enqueue(deleteRecord(rv, key), event, { key, object: last, rv }, undo);
  }

  watch(prefix: string, fromRv: number, onEvent: (event: StoreEvent) => void): WatchHandle {
    const oldest = this.oldestWatchableRevision();
    if (fromRv < oldest - 1) throw new StoreError('Expired', `too old resource version: ${fromRv} (${oldest})`, this.rev);
    // Replay runs synchronously and commits only happen in the commit loop, so no event can slip
    // in between the replay and the registration below.
    this.history.forEachAfter(fromRv, (event) => {
      if (event.key.startsWith(prefix)) onEvent(event);
    });
    // History holds every durable event, so the replay covered all of them up to durableRv.
    return this.watchers.add(prefix, Math.max(fromRv, this.queue.durableRv), onEvent);
  }

  stats(): FileStoreStats {
    return {
      objects: this.keyspace.size,
      bytes: this.keyspace.bytes,
      walSyncs: this.wal?.syncs ?? 0,
      walBytes: this.wal?.bytes ?? 0,
      snapshots: this.snapshotter?.count ?? 0,
      historyEvents: this.history.size,
      watchers: this.watchers.count,
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.queue.drain();
      await this.snapshotter?.idle();
      await this.wal?.close();
      clearInterval(this.probeTimer);
      await this.lock?.release();
    })();
    return this.closing;
  }

  /** Applies a create or a real update to memory and queues it for the WAL. */
  private put(key: string, given: KObject, prev: StoredObject | undefined): Promise<StoredObject> {
    const rv = this.rev + 1;
    const object = withResourceVersion(given, String(rv));
    let json: string;
    try {
      json = JSON.stringify(object);
    } catch (err) {
      return Promise.reject(err); // e.g. a BigInt or a cycle: nothing applied, no rv used
    }
    this.rev = rv;
    // The caller hands the object over (Store.create/update), so it is kept as it is, not parsed
    // back from its text (performance.md §20); the response and watch events reuse the text (§13).
    const stored: StoredObject = { key, object, rv };
    rememberJsonText(object, json);
    const record = putRecord(rv, key, json);
    const undo = this.keyspace.undoFor(key);
    this.keyspace.set(stored, record.length);
    const event: StoreEvent = prev
      ? { type: 'MODIFIED', key, object: stored.object, prevObject: prev.object, rv }
      : { type: 'ADDED', key, object: stored.object, rv };
    return this.queue.enqueue(record, event, stored, undo);
  }

  private checkPrecondition(key: string, expectedRv: number | undefined): StoredObject | Error {
    const refused = this.refuseWrite();
    if (refused) return refused;
    const current = this.keyspace.get(key);
    if (!current) return new StoreError('NotFound', `key ${key} not found`);
    if (expectedRv !== undefined && expectedRv !== current.rv) {
      return new StoreError('Conflict', `key ${key}: expected resourceVersion ${expectedRv}, found ${current.rv}`, current.rv);
    }
    return current;
  }

  private refuseWrite(): StoreError | undefined {
    return this.closing ? new StoreError('Closed', 'store is closed') : undefined;
  }

  /** Without writes coming in, readiness would report a failure long gone: test the disk itself. */
  private probeUntilHealthy(dir: string): void {
    this.probeTimer ??= setInterval(() => {
      if (!this.queue.failure) return this.stopProbing();
      probeDisk(dir).then(() => {
        this.queue.failure = undefined;
        this.stopProbing();
      }, () => undefined);
    }, 1000).unref();
  }

  private stopProbing(): void {
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }
}
