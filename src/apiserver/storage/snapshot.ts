/**
 * Snapshots: every object plus the revision they reflect, as JSON lines in `snapshot.json`
 * (a header line `{"snapshot":1,"revision":R,"objects":N}`, then `{"key":K,"rv":N,"value":V}`).
 * A snapshot is written to a temp file, fsync'ed, renamed over the old one and the directory
 * fsync'ed, so a crash leaves either the old snapshot or the new one, never a partial file.
 */
import { open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredObject } from './store.js';
import { readLines } from './line-reader.js';
import { fsyncDir } from './wal.js';

export const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_TEMP = 'snapshot.json.tmp';

/** Writes `objects` (immutable, captured at `revision`) without blocking the event loop for long. */
export async function writeSnapshot(dir: string, revision: number, objects: StoredObject[]): Promise<void> {
  const temp = join(dir, SNAPSHOT_TEMP);
  const handle = await open(temp, 'w');
  try {
    let buf = `{"snapshot":1,"revision":${revision},"objects":${objects.length}}\n`;
    for (const { key, rv, object } of objects) {
      buf += `{"key":${JSON.stringify(key)},"rv":${rv},"value":${JSON.stringify(object)}}\n`;
      if (buf.length >= 1 << 20) {
        await handle.writeFile(buf);
        buf = '';
      }
    }
    await handle.writeFile(buf);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, SNAPSHOT_FILE));
  await fsyncDir(dir);
}

/**
 * Reads `snapshot.json` if present, calling `onObject` with each object and its encoded size.
 * Returns the snapshot's revision (0 without a snapshot).
 */
export async function readSnapshot(dir: string, onObject: (stored: StoredObject, bytes: number) => void): Promise<number> {
  const path = join(dir, SNAPSHOT_FILE);
  if (!(await exists(path))) return 0;
  let header: { snapshot?: number; revision?: number; objects?: number } | undefined;
  let count = 0;
  const read = await readLines(path, (line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (!header) {
      header = record;
      if (record.snapshot !== 1 || typeof record.revision !== 'number') throw new Error(`${path}: unknown snapshot header`);
      return;
    }
    const { key, rv, value } = record as { key: string; rv: number; value: StoredObject['object'] };
    onObject({ key, rv, object: value }, line.length);
    count++;
  });
  if (!header || read.tailBytes > 0 || count !== header.objects) {
    throw new Error(`${path}: incomplete snapshot (${count} of ${header?.objects ?? '?'} objects)`);
  }
  return header.revision!;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
