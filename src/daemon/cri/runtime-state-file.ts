/**
 * The fake runtime's state on disk, as containerd keeps its own under /var/lib/containerd: one JSON
 * file per node with its sandboxes, containers, IPs and images, so a restarted process takes up the
 * running containers instead of starting new ones. Writes are batched (a change marks the file
 * dirty; it is written within `delayMs`) and atomic (a temporary file renamed over the old one), so
 * a kill -9 loses at most the last batch and never leaves a torn file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeServiceState } from './fake-runtime-service.js';
import type { Image } from './types.js';

export interface RuntimeState {
  version: 1;
  runtime: RuntimeServiceState;
  images: Image[];
}

/** The state a previous process left, or undefined (no file yet). A damaged file is an error naming it. */
export function readRuntimeState(file: string): RuntimeState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let state: RuntimeState;
  try {
    state = JSON.parse(text) as RuntimeState;
  } catch (e) {
    throw new Error(`runtime state file ${file} is not valid JSON (${(e as Error).message}); remove it to start the node with no containers`);
  }
  if (state?.version !== 1 || !state.runtime || !Array.isArray(state.images)) {
    throw new Error(`runtime state file ${file} has an unknown layout (version ${String(state?.version)}); remove it to start the node with no containers`);
  }
  return state;
}

export class RuntimeStateWriter {
  private timer?: NodeJS.Timeout;

  constructor(private readonly file: string, private readonly snapshot: () => RuntimeState, private readonly delayMs = 50) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  }

  /** Something changed: write the state soon. */
  changed(): void {
    this.timer ??= setTimeout(() => this.flush(), this.delayMs).unref();
  }

  /** Writes the state now if anything changed since the last write. */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot()), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
