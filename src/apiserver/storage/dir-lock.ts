/**
 * One process per store directory (docs/design/storage.md §9). Two servers appending to one WAL
 * would hand out the same revisions and leave a directory neither can read back, so the first to
 * start holds `LOCK` (its PID and start time) until it exits; a second start fails naming the
 * holder. A lock whose holder is gone (kill -9, reboot, a reused PID) is taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_FILE = 'LOCK';
/** Directories this process holds: its own PID in LOCK cannot tell a second open from a stale lock. */
const heldHere = new Set<string>();

export interface DirLock {
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  /** Process start time from /proc (clock ticks since boot), to tell a reused PID from the holder. */
  started?: string;
}

export async function lockDir(dir: string): Promise<DirLock> {
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(path)) throw new Error(`store directory ${dir} is in use by this process (${process.pid})`);
  heldHere.add(path);
  try {
    return await takeLock(dir, path);
  } catch (err) {
    heldHere.delete(path);
    throw err;
  }
}

async function takeLock(dir: string, path: string): Promise<DirLock> {
  const me: Holder = { pid: process.pid, started: await startTimeOf(process.pid) };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return {
        release: async () => {
          await unlink(path).catch(() => undefined);
          heldHere.delete(path);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = await readHolder(path);
    if (!holder) {
      await sleep(200); // perhaps written this very moment by a process starting alongside
      holder = await readHolder(path);
    }
    if (holder && (await isAlive(holder))) {
      throw new Error(`store directory ${dir} is in use by process ${holder.pid}: stop that process or choose another data directory`);
    }
    await unlink(path).catch(() => undefined); // stale: its holder is gone
  }
  throw new Error(`store directory ${dir}: could not take ${path}`);
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' ? (parsed as Holder) : undefined;
  } catch {
    return undefined; // torn by a crash while being written: nobody holds it
  }
}

async function isAlive(holder: Holder): Promise<boolean> {
  if (holder.pid === process.pid) return false; // our own PID from a previous life (PID 1 in a container)
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = await startTimeOf(holder.pid);
  return !holder.started || !started || started === holder.started;
}

/** Field 22 of /proc/<pid>/stat; undefined where /proc is not there. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
