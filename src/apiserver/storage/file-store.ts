/**
 * The default Store: objects in memory, made durable by a write-ahead log with group commit and
 * periodic snapshots in `dir` (memory only when `dir` is unset). A write is applied to memory and
 * given its rv at call time, so rv order is call order; its promise resolves and its watch event
 * is published only once its batch is fdatasync'ed.
 */
import type { Store } from './store.js';
import { FileBackedStore } from './file-backed-store.js';
import { History } from './history.js';
import { Keyspace } from './keyspace.js';
import { recover } from './recovery.js';
import { DIR_MODE, WalWriter } from './wal.js';
import { lockDir } from './dir-lock.js';
import { chmod, mkdir } from 'node:fs/promises';

export interface FileStoreOptions {
  /** Data directory; unset keeps everything in memory (tests). */
  dir?: string;
  /** Most watch-history events kept (default 100,000). */
  historyEvents?: number;
  /** Watch-history events older than this are dropped (default 15 minutes). */
  historyMs?: number;
  /** WAL size that triggers a snapshot and a fresh WAL (default 64 MiB). */
  snapshotEveryBytes?: number;
  /** Clock for history retention, in ms (default Date.now). */
  now?: () => number;
  /** Called when a background snapshot fails (the WAL still holds everything). */
  onSnapshotError?: (err: Error) => void;
  /** Called when a batch of writes fails to persist (they are undone and answered 503). */
  onWriteError?: (err: Error) => void;
  /** Hears what recovery changed on disk: a torn record cut off, an older layout rewritten. */
  onRecoveryNote?: (message: string) => void;
}

export interface FileStoreStats {
  objects: number;
  bytes: number;
  /** Durable WAL writes (one per batch) so far; far fewer than writes when group commit works. */
  walSyncs: number;
  walBytes: number;
  snapshots: number;
  historyEvents: number;
  watchers: number;
}

export interface FileStore extends Store {
  stats(): FileStoreStats;
  /** Why writes are failing (a full or failing disk), or undefined while they persist. */
  failure(): string | undefined;
}

export type ResolvedFileStoreOptions = Required<Omit<FileStoreOptions, 'dir'>> & { dir?: string };

export async function createFileStore(options: FileStoreOptions = {}): Promise<FileStore> {
  const resolved = resolveOptions(options);
  const keyspace = new Keyspace();
  const history = new History({ maxEvents: resolved.historyEvents, maxAgeMs: resolved.historyMs, now: resolved.now });
  if (resolved.dir === undefined) return new FileBackedStore(resolved, keyspace, history, 0, undefined);
  await mkdir(resolved.dir, { recursive: true, mode: DIR_MODE });
  await chmod(resolved.dir, DIR_MODE);
  const lock = await lockDir(resolved.dir);
  try {
    const recovered = await recover(resolved.dir, keyspace, history, resolved.onRecoveryNote);
    const wal = await WalWriter.open(resolved.dir, recovered.walFile, recovered.walBytes);
    return new FileBackedStore(resolved, keyspace, history, recovered.revision, wal, lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

function resolveOptions(options: FileStoreOptions): ResolvedFileStoreOptions {
  const resolved: ResolvedFileStoreOptions = {
    dir: options.dir,
    historyEvents: options.historyEvents ?? 100_000,
    historyMs: options.historyMs ?? 15 * 60_000,
    snapshotEveryBytes: options.snapshotEveryBytes ?? 64 * 1024 * 1024,
    now: options.now ?? Date.now,
    onSnapshotError: options.onSnapshotError ?? ((err) => process.emitWarning(`store snapshot failed: ${err.message}`)),
    onWriteError: options.onWriteError ?? ((err) => process.emitWarning(`store write failed: ${err.message}`)),
    onRecoveryNote: options.onRecoveryNote ?? ((message) => process.emitWarning(message)),
  };
  for (const name of ['historyEvents', 'historyMs', 'snapshotEveryBytes'] as const) {
    if (!(resolved[name] >= 0)) throw new Error(`createFileStore: ${name} must be a number >= 0, got ${resolved[name]}`);
  }
  return resolved;
}
