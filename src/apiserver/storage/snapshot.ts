/**
 * Snapshots: every object plus the revision they reflect, as sealed JSON lines in `snapshot.json`
 * (a header `{"snapshot":2,"revision":R,"objects":N,"wal":F}` naming the WAL file that continues
 * it, then `{"key":K,"rv":N,"value":V}` per object; docs/design/storage.md §4, §9). A snapshot is
 * written to a temp file, fsync'ed, renamed over the old one and the directory fsync'ed, so a crash
 * leaves either the old snapshot or the new one, never a partial file. `scan.ts` reads it back.
 */
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredObject } from './store.js';
import { sealLine } from './sealed-line.js';
import { fsyncDir } from './wal.js';

export const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_TEMP = 'snapshot.json.tmp';

/** Writes `objects` (immutable, captured at `revision`) without blocking the event loop for long. */
export async function writeSnapshot(dir: string, revision: number, objects: StoredObject[], walFile: string): Promise<void> {
  const temp = join(dir, SNAPSHOT_TEMP);
  const handle = await open(temp, 'w', 0o600);
  try {
    let buf = sealLine(`{"snapshot":2,"revision":${revision},"objects":${objects.length},"wal":${JSON.stringify(walFile)}}`);
    for (const { key, rv, object } of objects) {
      buf += sealLine(`{"key":${JSON.stringify(key)},"rv":${rv},"value":${JSON.stringify(object)}}`);
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
