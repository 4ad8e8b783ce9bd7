/**
 * The reconcile contract (controller-runtime's pkg/reconcile): `reconcile(ctx, req)` is level-triggered
 * and idempotent. Returning normally forgets the key's backoff; `requeueAfterMs` looks again later;
 * throwing retries with per-key backoff; throwing TerminalError gives up (counted and logged).
 */
import type { Logger } from '../machinery/log.js';
import type { Clock } from '../machinery/clock.js';
import { isConflict, isNotFound } from '../machinery/errors.js';
import type { Request } from './handlers.js';

export interface Result {
  requeueAfterMs?: number;
}

export interface ReconcileContext {
  /** Aborted when the controller stops (shutdown, or leadership lost). */
  signal: AbortSignal;
  /** Tagged with controller, key and reconcileID. */
  log: Logger;
  clock: Clock;
  reconcileId: string;
}

export type ReconcileFunc = (ctx: ReconcileContext, req: Request) => Promise<Result | void>;
export type Reconciler = ReconcileFunc | { reconcile: ReconcileFunc };

/** Throw it for errors a retry cannot fix (invalid spec): no requeue, counted and logged. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

/**
 * Runs one write of a reconcile. A 409 means another writer got there first; its event brings the
 * newer object back, so look again after `retryMs` instead of counting a failure. A 404 means the
 * object is gone and there is nothing left to do.
 */
export async function writeOrRequeue(write: () => Promise<unknown>, retryMs: number): Promise<Result | void> {
  try {
    await write();
  } catch (e) {
    if (isConflict(e)) return { requeueAfterMs: retryMs };
    if (!isNotFound(e)) throw e;
  }
}
