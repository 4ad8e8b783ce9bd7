/**
 * Startup: load the snapshot, replay the WAL files after it (refilling the watch history), and
 * repair a torn last record left by a crash mid-write by truncating it. A damaged record anywhere
 * else is corruption and fails loudly rather than silently dropping acknowledged writes.
 */
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KObject } from '../../api/meta.js';
import type { History } from './history.js';
import type { Keyspace } from './keyspace.js';
import { withResourceVersion } from './json-equal.js';
import { readLines } from './line-reader.js';
import { SNAPSHOT_TEMP, readSnapshot } from './snapshot.js';
import { listWalFiles, walFileName } from './wal.js';

export interface Recovered {
  revision: number;
  /** WAL file to keep appending to, and its size. */
  walFile: string;
  walBytes: number;
}

interface WalRecord {
  rv: number;
  op: 'put' | 'del';
  key: string;
  value?: KObject;
}

export async function recover(dir: string, keyspace: Keyspace, history: History): Promise<Recovered> {
  await mkdir(dir, { recursive: true });
  await rm(join(dir, SNAPSHOT_TEMP), { force: true });
  const snapshotRv = await readSnapshot(dir, (stored, bytes) => keyspace.set(stored, bytes));
  let revision = snapshotRv;
  const files = await listWalFiles(dir);
  let walBytes = 0;
  for (const [i, name] of files.entries()) {
    const path = join(dir, name);
    let badAt: number | undefined;
    const read = await readLines(path, (line, start) => {
      const record = parseRecord(line);
      if (!record || badAt !== undefined) {
        if (badAt !== undefined) throw new Error(`${path}: corrupt record at byte ${badAt}`);
        badAt = start;
        return;
      }
      if (record.rv <= snapshotRv) return;
      if (record.rv <= revision) throw new Error(`${path}: revision ${record.rv} after ${revision}`);
      revision = record.rv;
      apply(record, line.length, keyspace, history);
    });
    walBytes = badAt ?? read.wholeEnd;
    if (badAt === undefined && read.tailBytes === 0) continue;
    if (i !== files.length - 1) throw new Error(`${path}: torn record in a WAL file that is not the last`);
    await truncate(path, walBytes);
  }
  const walFile = files.at(-1) ?? walFileName(revision + 1);
  return { revision, walFile, walBytes: files.length > 0 ? walBytes : 0 };
}

function parseRecord(line: string): WalRecord | undefined {
  try {
    const r = JSON.parse(line) as Partial<WalRecord>;
    const valid = typeof r.rv === 'number' && typeof r.key === 'string' && (r.op === 'del' || (r.op === 'put' && r.value !== undefined));
    return valid ? (r as WalRecord) : undefined;
  } catch {
    return undefined; // a torn or damaged line; the caller decides which
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
  if (!prev) throw new Error(`WAL deletes ${key} at revision ${rv} but it does not exist`);
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
