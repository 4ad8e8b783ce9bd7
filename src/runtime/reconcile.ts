/**
 * The reconcile contract (controller-runtime's pkg/reconcile): `reconcile(ctx, req)` is level-triggered
 * and idempotent. Returning normally forgets the key's backoff; `requeueAfterMs` looks again later;
 * throwing retries with per-key backoff; throwing TerminalError gives up (counted and logged).
 */
import type { KObject } from '../api/meta.js';
import type { Logger } from '../machinery/log.js';
import type { Clock } from '../machinery/clock.js';
import { isConflict, isNotFound } from '../machinery/errors.js';
import type { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import { requestKey, type Request } from './handlers.js';
import type { Informer } from './informer.js';

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

/** What a reconcile waits on before it trusts its cache, each keyed by the request's key. */
export interface CacheWaits {
  /** Pods (or other children) this controller created or deleted and has not seen yet. */
  scale?: ScaleExpectations;
  /** The object's own writes (status, finalizers) the cache does not show yet. */
  writes?: ResourceVersionExpectations;
  /** How long to wait for a write to show (default 1 s). */
  writesRetryMs?: number;
}

/** `object` to reconcile, or none and the `result` to return at once. */
export interface CachedOrResult<T> {
  key: string;
  object?: T;
  result?: Result;
}

/**
 * The head of a reconcile over an informer's object: the cached object, or the result to return at
 * once. A key whose object is gone forgets its expectations; one whose cache is behind this
 * controller's own creations, deletions or writes looks again later instead of acting twice.
 */
export function cachedOrRequeue<T extends KObject>(informer: Informer<T>, req: Request, waits: CacheWaits): CachedOrResult<T> {
  const key = requestKey(req);
  const object = informer.get(req.namespace, req.name);
  if (!object) {
    waits.scale?.delete(key);
    waits.writes?.delete(key);
    return { key };
  }
  if (waits.scale && !waits.scale.satisfied(key)) return { key, result: { requeueAfterMs: waits.scale.waitMs(key) } };
  if (waits.writes && !waits.writes.isUpdatedSatisfied(key, object)) return { key, result: { requeueAfterMs: waits.writesRetryMs ?? 1000 } };
  return { key, object };
}
