/**
 * Startup (docs/design/storage.md §5, §9): take the directory's lock, read the snapshot and the WAL
 * back through `scanStore` (which checks every checksum and that revisions follow each other),
 * refill the watch history, and cut off a record torn by a crash mid-append. Any other damage
 * refuses to start, naming the file and byte offset and the command that repairs it. A directory
 * of the older layout (no checksums) is read as it is and rewritten as a checksummed snapshot.
 */
import { appendFile, chmod, open, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { History } from './history.js';
import type { Keyspace } from './keyspace.js';
import { withResourceVersion } from './json-equal.js';
import { FORMAT_FILE, FORMAT_TEXT, StoreDamage, exists, scanStore, type ScanSink, type WalRecord } from './scan.js';
import { SNAPSHOT_FILE, SNAPSHOT_TEMP, writeSnapshot } from './snapshot.js';
import { FILE_MODE, fsyncDir, listWalFiles, walFileName } from './wal.js';

export interface Recovered {
  revision: number;
  /** WAL file to keep appending to, and its size. */
  walFile: string;
  walBytes: number;
}

/** `note` hears what recovery changed on disk (a torn record cut off, a layout upgraded). */
export async function recover(dir: string, keyspace: Keyspace, history: History, note: (message: string) => void): Promise<Recovered> {
  await rm(join(dir, SNAPSHOT_TEMP), { force: true });
  if (await isEmpty(dir)) return startFresh(dir);
  const sink: ScanSink = {
    object: (stored, bytes) => keyspace.set(stored, bytes),
    record: (record, bytes) => apply(record, bytes, keyspace, history),
  };
  const scanned = await scanStore(dir, sink).catch((err: unknown) => {
    throw err instanceof StoreDamage ? damagedStoreError(dir, err) : err;
  });
  await ownerOnly(dir);
  let walBytes = scanned.walBytes;
  const walPath = join(dir, scanned.walFile ?? walFileName(scanned.revision + 1));
  if (scanned.torn) {
    note(`store: cut off ${scanned.torn.bytes} bytes at byte ${scanned.torn.offset} of ${scanned.walFile}: a record torn by a crash while it was being written, never acknowledged`);
  }
  // Also cuts the zeros the writer grew the file by (wal.ts), so a missing newline lands after the record.
  if (scanned.walFile && (scanned.torn || (await sizeOf(walPath)) > walBytes)) await truncate(walPath, walBytes);
  if (scanned.missingNewline) {
    await appendFile(walPath, '\n');
    walBytes++;
  }
  if (!scanned.checksummed) return upgradeLayout(dir, keyspace, scanned.revision, note);
  return { revision: scanned.revision, walFile: scanned.walFile!, walBytes };
}

/** Why the store will not start, and what to do about it. */
export function damagedStoreError(dir: string, damage: StoreDamage): Error {
  return new Error(
    `store ${dir} is damaged: ${damage.message}. Nothing was changed. ` +
      `'kruise store verify ${dir}' reports the damage; 'kruise store repair ${dir}' keeps what verifies ` +
      `and moves what does not into ${dir}/damaged-<time>/`,
  );
}

async function isEmpty(dir: string): Promise<boolean> {
  return !(await exists(join(dir, FORMAT_FILE))) && !(await exists(join(dir, SNAPSHOT_FILE))) && (await listWalFiles(dir)).length === 0;
}

/** The first WAL file exists before FORMAT does, so FORMAT without WAL files means they were lost. */
async function startFresh(dir: string): Promise<Recovered> {
  const walFile = walFileName(1);
  await (await open(join(dir, walFile), 'a', FILE_MODE)).close();
  await fsyncDir(dir);
  await markChecksummed(dir);
  return { revision: 0, walFile, walBytes: 0 };
}

/** Rewrites a directory of the older layout as a checksummed snapshot and a fresh WAL file. */
async function upgradeLayout(dir: string, keyspace: Keyspace, revision: number, note: (message: string) => void): Promise<Recovered> {
  const walFile = walFileName(revision + 1);
  await writeSnapshot(dir, revision, keyspace.all(), walFile);
  await (await open(join(dir, walFile), 'a', FILE_MODE)).close();
  for (const name of await listWalFiles(dir)) if (name < walFile) await unlink(join(dir, name));
  await fsyncDir(dir);
  await markChecksummed(dir);
  note(`store: ${dir} rewritten with checksums at revision ${revision}`);
  return { revision, walFile, walBytes: 0 };
}

async function markChecksummed(dir: string): Promise<void> {
  await writeFile(join(dir, FORMAT_FILE), FORMAT_TEXT, { mode: FILE_MODE });
  await fsyncDir(dir);
}

/** Directories written before files were owner-only get their modes fixed. */
async function ownerOnly(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) await chmod(join(dir, entry.name), FILE_MODE);
  }
}

function apply(record: WalRecord, bytes: number, keyspace: Keyspace, history: History): void {
  const { rv, key } = record;
  const prev = keyspace.get(key);
  if (record.op === 'put') {
    const stored = { key, object: record.value!, rv };
    keyspace.set(stored, bytes);
    history.append(prev ? { type: 'MODIFIED', key, object: stored.object, prevObject: prev.object, rv } : { type: 'ADDED', key, object: stored.object, rv });
    return;
  }
  if (!prev) throw new Error(`the record deletes ${key} at revision ${rv}, which does not exist`);
  keyspace.delete(key);
  history.append({ type: 'DELETED', key, object: withResourceVersion(prev.object, String(rv)), prevObject: prev.object, rv });
}

/** Cuts a torn tail off so new records start on a clean line. */
async function truncate(path: string, length: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => ({ size: 0 }))).size;
}
