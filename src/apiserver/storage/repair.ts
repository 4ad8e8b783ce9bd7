/**
 * `kruise store verify|repair DIR` (docs/design/storage.md §11). Verify reads the directory as a
 * start would and reports the first damage. Repair keeps everything that verifies up to the damage,
 * moves what it cannot keep into `DIR/damaged-<time>/` (nothing is deleted), reports what it dropped,
 * and repeats until the directory verifies.
 */
import { copyFile, mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readLines } from './line-reader.js';
import { lockDir } from './dir-lock.js';
import { StoreDamage, exists, scanStore, type ScanResult } from './scan.js';
import { unsealLine } from './sealed-line.js';
import { SNAPSHOT_FILE, writeSnapshot } from './snapshot.js';
import type { StoredObject } from './store.js';
import { FILE_MODE, listWalFiles } from './wal.js';

export interface VerifyReport {
  /** What a start would find: its revision, objects and WAL records after the snapshot. */
  scanned?: ScanResult & { objects: number };
  damage?: StoreDamage;
}

export async function verifyStore(dir: string): Promise<VerifyReport> {
  const keys = new Set<string>();
  try {
    const scanned = await scanStore(dir, {
      object: (stored) => keys.add(stored.key),
      record: (record) => {
        if (record.op === 'put') return void keys.add(record.key);
        if (!keys.delete(record.key)) throw new Error(`the record deletes ${record.key} at revision ${record.rv}, which does not exist`);
      },
    });
    return { scanned: { ...scanned, objects: keys.size } };
  } catch (err) {
    if (err instanceof StoreDamage) return { damage: err };
    throw err;
  }
}

/** Repairs `dir` in place; returns one line per change made, and the final verification. */
export async function repairStore(dir: string, now = new Date()): Promise<{ changes: string[]; report: VerifyReport }> {
  const lock = await lockDir(dir);
  const aside = join(dir, `damaged-${now.toISOString().replace(/[:.]/g, '-')}`);
  const changes: string[] = [];
  try {
    for (let round = 0; round < 1000; round++) {
      const report = await verifyStore(dir);
      if (!report.damage) return { changes, report };
      await mkdir(aside, { recursive: true, mode: 0o700 });
      changes.push(await cutAway(dir, report.damage, aside));
    }
    throw new Error(`store ${dir}: still damaged after 1000 repairs`);
  } finally {
    await lock.release();
  }
}

/** Removes one damage; what it drops goes to `aside`. */
async function cutAway(dir: string, damage: StoreDamage, aside: string): Promise<string> {
  const path = join(dir, damage.file);
  if (damage.file === SNAPSHOT_FILE) return rewriteSnapshot(dir, aside);
  if (!(await exists(path))) {
    await (await open(path, 'a', FILE_MODE)).close();
    return `${damage.message}: created it empty; writes it held are lost`;
  }
  await copyFile(path, join(aside, damage.file));
  const dropped = await countLines(path, damage.offset);
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(damage.offset);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const later = (await listWalFiles(dir)).filter((f) => f > damage.file);
  for (const name of later) await rename(join(dir, name), join(aside, name));
  const moved = later.length > 0 ? ` and moved ${later.length} later WAL file(s)` : '';
  return `${damage.message}: dropped ${dropped} record(s) from there on${moved}; originals in ${aside}`;
}

/** Keeps every snapshot object whose line verifies; the header is rebuilt when it is the damage. */
async function rewriteSnapshot(dir: string, aside: string): Promise<string> {
  const path = join(dir, SNAPSHOT_FILE);
  let header: { revision?: number; wal?: string } | undefined;
  const kept: StoredObject[] = [];
  let dropped = 0;
  await readLines(path, (line) => {
    const json = unsealLine(line);
    const parsed = json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
    if (parsed && 'snapshot' in parsed) header = parsed;
    else if (parsed) kept.push({ key: parsed.key as string, rv: parsed.rv as number, object: parsed.value as StoredObject['object'] });
    else dropped++;
  }, () => void dropped++);
  const revision = header?.revision ?? Math.max(0, ...kept.map((o) => o.rv));
  const wal = header?.wal ?? (await listWalFiles(dir))[0];
  if (!wal) throw new Error(`store ${dir}: the snapshot header is damaged and no WAL file says where it continues`);
  await copyFile(path, join(aside, SNAPSHOT_FILE));
  await writeSnapshot(dir, revision, kept, wal);
  return `${SNAPSHOT_FILE}: kept ${kept.length} object(s), dropped ${dropped} damaged line(s)${header ? '' : ' including the header'}; original in ${aside}`;
}

async function countLines(path: string, from: number): Promise<number> {
  let n = 0;
  await readLines(path, (_line, start) => void (start >= from && n++), (_tail, start) => void (start >= from && n++));
  return n;
}
