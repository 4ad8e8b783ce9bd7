/**
 * Reads a store directory back and checks it (docs/design/storage.md §5, §9): every line's
 * checksum, the snapshot's object count, the WAL file the snapshot continues in, and revisions
 * that follow each other without a gap. Read-only: recovery applies what it reads, and
 * `kruise store verify|repair` use the same reading to report or cut away damage.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KObject } from '../../api/meta.js';
import type { StoredObject } from './store.js';
import { readLines } from './line-reader.js';
import { unsealLine } from './sealed-line.js';
import { SNAPSHOT_FILE } from './snapshot.js';
import { listWalFiles, walFileName } from './wal.js';

/** Present once a directory is in the checksummed format; its absence means an older layout. */
export const FORMAT_FILE = 'FORMAT';
export const FORMAT_TEXT = 'kruise-store 2\n';

export interface WalRecord {
  rv: number;
  op: 'put' | 'del';
  key: string;
  value?: KObject;
}

/** Damage found at a byte offset of one file of the store. */
export class StoreDamage extends Error {
  constructor(readonly file: string, readonly offset: number, readonly reason: string) {
    super(`${file} at byte ${offset}: ${reason}`);
    this.name = 'StoreDamage';
  }
}

export interface ScanSink {
  object(stored: StoredObject, bytes: number): void;
  record(record: WalRecord, bytes: number): void;
}

export interface ScanResult {
  checksummed: boolean;
  snapshotRevision: number;
  revision: number;
  records: number;
  /** The last WAL file and the byte offset after its last whole record. */
  walFile?: string;
  walBytes: number;
  /** Bytes after the last newline of the last WAL file: a record cut short by a crash mid-append. */
  torn?: { offset: number; bytes: number };
  /** The bytes after the last newline are a whole, verified record that only lacks its newline. */
  missingNewline?: boolean;
}

export async function scanStore(dir: string, sink: ScanSink): Promise<ScanResult> {
  const checksummed = await exists(join(dir, FORMAT_FILE));
  const snapshot = await scanSnapshot(dir, checksummed, sink);
  // Files before the one the snapshot names are covered by it (left by a crash before their removal).
  const files = (await listWalFiles(dir)).filter((f) => !snapshot?.wal || f >= snapshot.wal);
  const expectedFirst = snapshot?.wal ?? walFileName(1);
  if (checksummed && files[0] !== expectedFirst) {
    const after = snapshot ? `the snapshot at revision ${snapshot.revision}` : 'the start of the store';
    throw new StoreDamage(expectedFirst, 0, `missing: the WAL file that follows ${after} is gone, and with it every write since`);
  }
  const result: ScanResult = { checksummed, snapshotRevision: snapshot?.revision ?? 0, revision: snapshot?.revision ?? 0, records: 0, walFile: files.at(-1), walBytes: 0 };
  for (const [i, name] of files.entries()) {
    const last = i === files.length - 1;
    let tornAt: number | undefined;
    let tailLength = 0;
    const read = await readLines(join(dir, name), (line, start) => {
      if (tornAt !== undefined) return;
      // A line starting in the zeros the writer grew the file by: a batch whose pages reached the disk
      // only in part before a crash, so never acknowledged (wal.ts); the rest of the file goes with it.
      if (last && line.charCodeAt(0) === 0) {
        tornAt = start;
        return;
      }
      const record = decodeRecord(line, checksummed);
      if (!record) throw new StoreDamage(name, start, checksummed ? 'checksum mismatch' : 'unreadable record');
      if (record.rv <= result.snapshotRevision) return;
      if (checksummed ? record.rv !== result.revision + 1 : record.rv <= result.revision) {
        throw new StoreDamage(name, start, `revision ${record.rv} follows revision ${result.revision}`);
      }
      try {
        sink.record(record, line.length);
      } catch (err) {
        throw new StoreDamage(name, start, (err as Error).message);
      }
      result.revision = record.rv;
      result.records++;
    }, (padded, start) => {
      // Zeros after the records are space the writer grew the file by (wal.ts), not data.
      const tail = padded.replace(/\0+$/, '');
      if (tail === '' || tornAt !== undefined) return;
      if (!last) throw new StoreDamage(name, start, 'a record cut short in a WAL file that is not the last');
      const record = checksummed && unsealLine(tail) ? decodeRecord(tail, true) : undefined;
      if (record && record.rv === result.revision + 1) {
        sink.record(record, tail.length);
        result.revision = record.rv;
        result.records++;
        result.missingNewline = true;
        tailLength = Buffer.byteLength(tail);
        return;
      }
      result.torn = { offset: start, bytes: Buffer.byteLength(tail) };
    });
    if (last && tornAt !== undefined) result.torn = { offset: tornAt, bytes: read.wholeEnd + read.tailBytes - tornAt };
    if (last) result.walBytes = tornAt ?? (result.missingNewline ? read.wholeEnd + tailLength : read.wholeEnd);
  }
  return result;
}

interface SnapshotHeader {
  revision: number;
  /** The WAL file written after it (unknown for snapshots of the older layout). */
  wal?: string;
}

async function scanSnapshot(dir: string, checksummed: boolean, sink: ScanSink): Promise<SnapshotHeader | undefined> {
  if (!(await exists(join(dir, SNAPSHOT_FILE)))) return undefined;
  let header: { snapshot?: number; revision?: number; objects?: number; wal?: string } | undefined;
  let count = 0;
  let offset = 0;
  const read = await readLines(join(dir, SNAPSHOT_FILE), (line, start) => {
    offset = start;
    const json = header?.snapshot === 1 || (!header && !checksummed && line.startsWith('{"snapshot":1,')) ? line : unsealLine(line);
    const parsed = json === undefined ? undefined : parseJson(json);
    if (!parsed) throw new StoreDamage(SNAPSHOT_FILE, start, 'checksum mismatch');
    if (!header) {
      header = parsed;
      if (typeof header.revision !== 'number' || (header.snapshot !== 1 && header.snapshot !== 2)) throw new StoreDamage(SNAPSHOT_FILE, 0, 'unknown snapshot header');
      return;
    }
    const { key, rv, value } = parsed as { key: string; rv: number; value: KObject };
    sink.object({ key, rv, object: value }, line.length);
    count++;
  });
  if (!header || read.tailBytes > 0 || count !== header.objects) {
    throw new StoreDamage(SNAPSHOT_FILE, read.tailBytes > 0 ? read.wholeEnd : offset, `incomplete snapshot (${count} of ${header?.objects ?? '?'} objects)`);
  }
  return { revision: header.revision!, wal: header.wal };
}

function decodeRecord(line: string, checksummed: boolean): WalRecord | undefined {
  const json = unsealLine(line) ?? (checksummed ? undefined : line);
  const r = json === undefined ? undefined : (parseJson(json) as Partial<WalRecord> | undefined);
  const valid = r && typeof r.rv === 'number' && typeof r.key === 'string' && (r.op === 'del' || (r.op === 'put' && r.value !== undefined));
  return valid ? (r as WalRecord) : undefined;
}

function parseJson(json: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
