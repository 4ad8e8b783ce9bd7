/**
 * The storage seam of the embedded control plane: a versioned key/value store of JSON objects,
 * shaped like the subset of etcd that kube-apiserver uses. It knows no kinds: keys are strings
 * (`/<group>/<resource>/<namespace>/<name>`), values are objects whose `metadata.resourceVersion`
 * the store owns. Every write bumps one global revision; the store keeps a window of history so
 * watches can resume from a revision, and answers `Expired` for anything older.
 */
import type { KObject } from '../../api/meta.js';

export interface StoredObject {
  key: string;
  /** The object with `metadata.resourceVersion` set to `String(rv)`. Callers must not mutate it. */
  object: KObject;
  /** Revision of the last write of this key. */
  rv: number;
}

export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  /** New state (ADDED/MODIFIED) or last state with the deletion's resourceVersion (DELETED). */
  object: KObject;
  /** State before this write (MODIFIED/DELETED). */
  prevObject?: KObject;
  rv: number;
  /** Lazily filled, shared cache of encodings of this event (e.g. the JSON watch line), keyed by format. */
  encoded?: Map<string, string | Buffer>;
  /** Lazily filled by the API server's watch: the object as in-process readers get it (SharedWatchEvent). */
  forReaders?: KObject;
}

export interface ListResult {
  items: StoredObject[];
  /** Store revision at which the list was taken. */
  rv: number;
}

export interface WatchHandle {
  stop(): void;
}

export class StoreError extends Error {
  constructor(readonly code: 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Expired' | 'Closed' | 'Unavailable', message: string, readonly currentRv?: number) {
    super(message);
    this.name = 'StoreError';
  }
}

export interface Store {
  /** The newest revision written (0 for an empty store). */
  revision(): number;
  /** Oldest revision a watch can start after without `Expired`. */
  oldestWatchableRevision(): number;

  get(key: string): StoredObject | undefined;
  /** All objects whose key starts with `prefix`, sorted by key. `startAfter` skips keys <= it; `limit` caps the count. */
  list(prefix: string, options?: { startAfter?: string; limit?: number; filter?: (o: KObject) => boolean }): ListResult & { remaining: number };

  /**
   * Fails with AlreadyExists if the key exists. Resolves once durable. Like update, it takes
   * `object` over: the stored value shares its nested values, so the caller must not modify it after.
   */
  create(key: string, object: KObject): Promise<StoredObject>;
  /**
   * Replaces the value. `expectedRv` (when given) must equal the current rv, else Conflict.
   * NotFound if absent. A value deep-equal to the stored one (ignoring resourceVersion) is a no-op:
   * it resolves with the stored object, keeps its rv and emits no event.
   */
  update(key: string, object: KObject, expectedRv?: number): Promise<StoredObject>;
  /** Removes the key; `expectedRv` as for update. Resolves with the last state carrying the deletion's rv. */
  delete(key: string, expectedRv?: number): Promise<StoredObject>;

  /**
   * Delivers events for keys under `prefix` with rv > `fromRv`, in rv order, first from history and then live.
   * Throws StoreError('Expired') when `fromRv` < oldestWatchableRevision() - 1.
   * Events are delivered synchronously after the write is durable; the callback must not throw.
   */
  watch(prefix: string, fromRv: number, onEvent: (event: StoreEvent) => void): WatchHandle;

  /** Approximate number of stored objects and bytes, for metrics. */
  stats(): { objects: number; bytes: number };
  close(): Promise<void>;
}
