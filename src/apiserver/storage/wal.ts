/**
 * The write-ahead log: JSON lines `{"rv":N,"op":"put"|"del","key":K,"value":V}` appended to
 * `wal-<first rv>.log` files. `append` returns once the bytes are fdatasync'ed; the commit queue
 * calls it with whole batches (group commit). A snapshot starts a fresh file, and files older than
 * the snapshot are deleted once it is durable.
 */
import { open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const WAL_FILE = /^wal-(\d{16})\.log$/;

export function walFileName(firstRv: number): string {
  return `wal-${String(firstRv).padStart(16, '0')}.log`;
}

/** WAL file names in `dir`, oldest first. */
export async function listWalFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => WAL_FILE.test(name)).sort();
}

export function putRecord(rv: number, key: string, valueJson: string): string {
  return `{"rv":${rv},"op":"put","key":${JSON.stringify(key)},"value":${valueJson}}\n`;
}

export function deleteRecord(rv: number, key: string): string {
  return `{"rv":${rv},"op":"del","key":${JSON.stringify(key)}}\n`;
}

/** Makes a directory entry change (create, rename, unlink) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class WalWriter {
  /** fdatasync calls made so far (a group-commit metric). */
  syncs = 0;

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
    const handle = await open(join(dir, fileName), 'a');
    if (bytes === 0) await fsyncDir(dir);
    return new WalWriter(dir, handle, fileName, bytes);
  }

  async append(data: string): Promise<void> {
    const buf = Buffer.from(data, 'utf8');
    for (let off = 0; off < buf.length; ) off += (await this.handle.write(buf, off, buf.length - off)).bytesWritten;
    await this.handle.datasync();
    this.syncs++;
    this.bytes += buf.length;
  }

  /** Switches to a new file whose records all have rv >= `firstRv`. Call only between appends. */
  async rotate(firstRv: number): Promise<void> {
    const fileName = walFileName(firstRv);
    const handle = await open(join(this.dir, fileName), 'a');
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
