/**
 * The protection log (docs/design/webhooks.md §12): one JSON line per PUB or deletion-protection rejection,
 * appended to `<dir>/protection.log`. Off until `configure(dir)` is called (the manager's
 * `--protection-log-path`); a failed write is logged and never fails the admission request.
 */
import { mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { logger } from '../../machinery/log.js';

export type ProtectionEvent = 'PodUnavailableBudget' | 'DeletionProtection';

export interface ProtectionLogEntry {
  event: ProtectionEvent;
  kind: string;
  namespace: string;
  name: string;
  /** The requesting user's name (upstream calls the field UserAgent). */
  userAgent: string;
}

export class ProtectionLog {
  private file?: string;
  private tail: Promise<void> = Promise.resolve();

  /** Directory to write `protection.log` into, created if missing; `undefined` turns the log off. */
  configure(dir: string | undefined): void {
    if (dir === undefined) {
      this.file = undefined;
      return;
    }
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'protection.log');
  }

  enabled(): boolean {
    return this.file !== undefined;
  }

  /** Appends one line; resolves once it is written (writes stay in call order). */
  record(entry: ProtectionLogEntry): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const line = JSON.stringify({ Event: entry.event, Kind: entry.kind, Namespace: entry.namespace, Name: entry.name, UserAgent: entry.userAgent });
    this.tail = this.tail.then(() => appendFile(file, `${line}\n`)).catch((err: unknown) => {
      logger('protection-log').warn({ err, file }, 'Failed to write protection log');
    });
    return this.tail;
  }
}

/** The log the protection and PUB handlers write to. */
export const protectionLog = new ProtectionLog();
