/**
 * The write-ahead log: sealed JSON lines `{"rv":N,"op":"put"|"del","key":K,"value":V}` appended to
 * `wal-<rv>.log` files. `append` returns once the bytes are fdatasync'ed; the commit queue calls it
 * with whole batches (group commit). A failed append cuts the file back to where it was, so what is
 * on disk is exactly the acknowledged writes (docs/design/storage.md §10). A snapshot starts a
 * fresh file, and files older than the snapshot are deleted once it is durable.
 *
 * The file is grown ahead of the records in zero-filled steps and records are written in place, so
 * most fdatasyncs flush data only, not the file's size through the filesystem journal (as etcd
 * preallocates its WAL); the zeros after the last record are trimmed on close and skipped by
 * recovery (docs/design/performance.md §7).
 */
import { constants } from 'node:fs';
import { open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { sealLine } from './sealed-line.js';

const WAL_FILE = /^wal-(\d{16})\.log$/;
/** How far ahead of the records the file is grown with zeros: as much as it holds, 64 KiB to 4 MiB. */
const MIN_AHEAD = 64 << 10;
const MAX_AHEAD = 4 << 20;
const ZEROS = Buffer.alloc(64 << 10);

export function walFileName(firstRv: number): string {
  return `wal-${String(firstRv).padStart(16, '0')}.log`;
}

/** WAL file names in `dir`, oldest first. */
export async function listWalFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => WAL_FILE.test(name)).sort();
}

export function putRecord(rv: number, key: string, valueJson: string): string {
  return sealLine(`{"rv":${rv},"op":"put","key":${JSON.stringify(key)},"value":${valueJson}}`);
}

export function deleteRecord(rv: number, key: string): string {
  return sealLine(`{"rv":${rv},"op":"del","key":${JSON.stringify(key)}}`);
}

/** Owner-only: the WAL and snapshot hold every Secret's data. */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Makes a directory entry change (create, rename, unlink) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Whether the disk takes a small durable write again (after a failure such as a full disk). */
export async function probeDisk(dir: string): Promise<void> {
  const path = join(dir, '.probe');
  const handle = await open(path, 'w', FILE_MODE);
  try {
    await handle.writeFile(Buffer.alloc(4096));
    await handle.sync();
  } finally {
    await handle.close();
    await unlink(path).catch(() => undefined);
  }
}

export class WalWriter {
  /** fdatasync calls made so far (a group-commit metric). */
  syncs = 0;
  /** Whether the last append failed and its bytes could not be cut off yet. */
  private dirty = false;
  /** The file's length: `bytes` of records, then zeros up to here. */
  private allocated: number;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    /** Name of the file being appended to. */
    public fileName: string,
    /** Bytes of records in the current file. */
    public bytes: number,
  ) {
    this.allocated = bytes;
  }

  /** Appends to `fileName` (creating it, durably, when missing); `bytes` is its length of records. */
  static async open(dir: string, fileName: string, bytes: number): Promise<WalWriter> {
    const handle = await openForWriting(join(dir, fileName));
    if (bytes === 0) await fsyncDir(dir);
    const writer = new WalWriter(dir, handle, fileName, bytes);
    writer.allocated = Math.max(bytes, (await handle.stat()).size);
    return writer;
  }

  async append(data: string): Promise<void> {
    const buf = Buffer.from(data, 'utf8');
    try {
      if (this.dirty) await this.cutBack();
      if (this.bytes + buf.length > this.allocated) await this.grow(this.bytes + buf.length);
      // O_DSYNC: each write returns once its data is on disk, one trip to the thread pool instead of write + fdatasync.
      for (let off = 0; off < buf.length; ) off += (await this.handle.write(buf, off, buf.length - off, this.bytes + off)).bytesWritten;
    } catch (err) {
      // Part of the batch may be on disk, and after a failed fdatasync nobody knows which part:
      // cut the file back to its acknowledged length (now, or before the next append).
      this.dirty = true;
      await this.cutBack().catch(() => undefined);
      throw err;
    }
    this.syncs++;
    this.bytes += buf.length;
    this.allocated = Math.max(this.allocated, this.bytes);
  }

  private async cutBack(): Promise<void> {
    await this.handle.truncate(this.bytes);
    await this.handle.sync();
    this.allocated = this.bytes;
    this.dirty = false;
  }

  /**
   * Zero-fills the file past `needed` (written, not a sparse hole, so later writes allocate nothing).
   * A disk too full for the zeros is no error: they are cut off and the records are written as plain
   * appends, which fail only when the records themselves do not fit.
   */
  private async grow(needed: number): Promise<void> {
    const length = needed + Math.min(MAX_AHEAD, Math.max(MIN_AHEAD, this.bytes));
    try {
      // Never below the records: after a plain append the file ends at `bytes`, past `allocated`.
      for (let at = Math.max(this.allocated, this.bytes); at < length; ) {
        const n = Math.min(ZEROS.length, length - at);
        at += (await this.handle.write(ZEROS, 0, n, at)).bytesWritten;
      }
      this.allocated = length;
    } catch {
      await this.handle.truncate(this.bytes);
      this.allocated = this.bytes;
    }
  }

  /** Cuts the zeros after the last record off (a cleanly closed file ends with its last record). */
  private async trim(handle: FileHandle): Promise<void> {
    if (this.allocated > this.bytes) await handle.truncate(this.bytes);
  }

  /** Switches to a new file whose records all have rv >= `firstRv`. Call only between appends. */
  async rotate(firstRv: number): Promise<void> {
    const fileName = walFileName(firstRv);
    const handle = await openForWriting(join(this.dir, fileName));
    try {
      await fsyncDir(this.dir);
    } catch (err) {
      await handle.close();
      throw err;
    }
    await this.trim(this.handle).catch(() => undefined); // recovery skips the zeros anyway
    await this.handle.close();
    this.handle = handle;
    this.fileName = fileName;
    this.bytes = 0;
    this.allocated = 0;
  }

  /** Deletes WAL files older than `fileName` (their records are covered by a snapshot). */
  async removeFilesBefore(fileName: string): Promise<void> {
    for (const name of await listWalFiles(this.dir)) {
      if (name < fileName) await unlink(join(this.dir, name));
    }
  }

  async close(): Promise<void> {
    try {
      await this.trim(this.handle);
    } finally {
      await this.handle.close();
    }
  }
}

/** Read-write without O_APPEND (records are written at their offsets), durable writes (O_DSYNC), owner-only. */
function openForWriting(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDWR | constants.O_CREAT | constants.O_DSYNC, FILE_MODE);
}
