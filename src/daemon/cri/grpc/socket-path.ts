/** Unix socket paths for CRI endpoints: a length every kernel accepts, stale files cleared (docs/design/cri.md §6). */
import { createHash } from 'node:crypto';
import { lstat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** sun_path holds 108 bytes on Linux (104 on macOS) with the terminating NUL; keep well inside both. */
const maxSocketPathBytes = 103;

/**
 * The path to bind or dial for `socketPath`. A path too long for sun_path (a deep data dir) cannot
 * be bound at all, so it maps to a short one under os.tmpdir() named by a hash of the long one:
 * server and client both map the same way, so either path reaches the socket through this module,
 * while tools like crictl need the short path (the server reports it).
 */
export function usableSocketPath(socketPath: string): string {
  const absolute = path.resolve(socketPath);
  if (Buffer.byteLength(absolute) <= maxSocketPathBytes) return absolute;
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `kruise-cri-${hash}.sock`);
}

/**
 * Removes a socket file left by a process that died without closing it (binding would fail with
 * EADDRINUSE). Anything that is not a socket is left alone and reported: it is not ours to delete.
 */
export async function removeStaleSocket(socketPath: string): Promise<void> {
  const stat = await lstat(socketPath).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (!stat) return;
  if (!stat.isSocket()) throw new Error(`cannot serve CRI at ${socketPath}: a file that is not a socket is in the way`);
  await unlink(socketPath).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}
