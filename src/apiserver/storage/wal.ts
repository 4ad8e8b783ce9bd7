/**
 * The write-ahead log: sealed JSON lines `{"rv":N,"op":"put"|"del","key":K,"value":V}` appended to
 * `wal-<rv>.log` files. `append` returns once the bytes are fdatasync'ed; the commit queue calls it
 * with whole batches (group commit). A failed append cuts the file back to where it was, so what is
 * on disk is exactly the acknowledged writes (docs/design/storage.md §10). A snapshot starts a
 * fresh file, and files older than the snapshot are deleted once it is durable.
 */
import { open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { sealLine } from './sealed-line.js';

const WAL_FILE = /^wal-(\d{16})\.log$/;

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

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    /** Name of the file being appended to. */
    public fileName: string,
    /** Bytes in the current file. */
    public bytes: number,
  ) {}

  /** Appends to `fileName` (creating it, durably, when missing); `bytes` is its current size. */
  static async open(dir: string, fileName: string, bytes: number): Promise<WalWriter> {
    const handle = await open(join(dir, fileName), 'a', FILE_MODE);
    if (bytes === 0) await fsyncDir(dir);
    return new WalWriter(dir, handle, fileName, bytes);
  }

  async append(data: string): Promise<void> {
    const buf = Buffer.from(data, 'utf8');
    try {
      if (this.dirty) await this.cutBack();
      for (let off = 0; off < buf.length; ) off += (await this.handle.write(buf, off, buf.length - off)).bytesWritten;
      await this.handle.datasync();
    } catch (err) {
      // Part of the batch may be on disk, and after a failed fdatasync nobody knows which part:
      // cut the file back to its acknowledged length (now, or before the next append).
      this.dirty = true;
      await this.cutBack().catch(() => undefined);
      throw err;
    }
    this.syncs++;
    this.bytes += buf.length;
  }

  private async cutBack(): Promise<void> {
    await this.handle.truncate(this.bytes);
    await this.handle.sync();
    this.dirty = false;
  }

  /** Switches to a new file whose records all have rv >= `firstRv`. Call only between appends. */
  async rotate(firstRv: number): Promise<void> {
    const fileName = walFileName(firstRv);
    const handle = await open(join(this.dir, fileName), 'a', FILE_MODE);
    try {
      await fsyncDir(this.dir);
    } catch (err) {
      await handle.close();
      throw err;
    }
    await this.handle.close();
    this.handle = handle;
    this.fileName = fileName;
    this.bytes = 0;
  }

  /** Deletes WAL files older than `fileName` (their records are covered by a snapshot). */
  async removeFilesBefore(fileName: string): Promise<void> {
    for (const name of await listWalFiles(this.dir)) {
      if (name < fileName) await unlink(join(this.dir, name));
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
