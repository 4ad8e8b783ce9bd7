/**
 * How a DELETE marks an object, as kube's BeforeDelete and the store's finalizer handling do.
 * Kinds with a graceful delete (pods) get deletionTimestamp = now + grace; a later DELETE may only
 * shorten the period, counted from when the first one asked. Other kinds are marked (grace 0) only
 * when finalizers hold them.
 */
import type { KObject } from '../../api/meta.js';
import { timestamp } from './core.js';
import type { ServedResource } from './served-resource.js';

export interface DeletionMark {
  /** The object to write (or return), with deletion metadata set. */
  object: KObject;
  /** The marks changed, so the object is written before anything else happens. */
  changed: boolean;
  /** A graceful deletion is already under way and this request does not shorten it: nothing changes. */
  pending: boolean;
  /** Remove it now: graceful kinds at grace 0, other kinds when nothing holds them. */
  immediate: boolean;
}

export function isGracefulKind(r: ServedResource): boolean {
  return !!r.strategy.defaultGracePeriodSeconds;
}

/** `finalizers` are the ones the object will carry (propagation finalizer included). */
export function markForDeletion(r: ServedResource, old: KObject, finalizers: string[], held: boolean, requested: number | undefined, now: Date): DeletionMark {
  const obj: KObject = { ...old, metadata: { ...old.metadata } };
  if (finalizers.length) obj.metadata.finalizers = finalizers;
  else delete obj.metadata.finalizers;
  const m = obj.metadata;
  const hold = finalizers.length > 0 || held;
  if (!isGracefulKind(r)) {
    if (!hold) return { object: obj, changed: false, pending: false, immediate: true };
    if (!m.deletionTimestamp) setMark(r, obj, now, 0);
    return { object: obj, changed: true, pending: false, immediate: false };
  }
  const grace = gracePeriod(r, old, requested);
  const previous = m.deletionGracePeriodSeconds;
  if (m.deletionTimestamp && !previous) return { object: obj, changed: hold, pending: false, immediate: !hold };
  if (m.deletionTimestamp && previous) {
    if (grace >= previous) return { object: old, changed: false, pending: true, immediate: false };
    const asked = new Date(m.deletionTimestamp).getTime() - previous * 1000;
    m.deletionTimestamp = timestamp(new Date(asked + grace * 1000));
    m.deletionGracePeriodSeconds = grace;
  } else {
    setMark(r, obj, new Date(now.getTime() + grace * 1000), grace);
  }
  return { object: obj, changed: true, pending: false, immediate: grace === 0 && !hold };
}

function setMark(r: ServedResource, obj: KObject, at: Date, grace: number): void {
  const m = obj.metadata;
  if (r.tracksGeneration) m.generation = (m.generation ?? 0) + 1;
  m.deletionTimestamp = timestamp(at);
  m.deletionGracePeriodSeconds = grace;
}

/**
 * The client's period, else the kind's default; 0 for an object the kind deletes at once (a pod not
 * on a node, or finished); a negative period counts as 1s.
 */
function gracePeriod(r: ServedResource, old: KObject, requested: number | undefined): number {
  if (r.strategy.deletesAtOnce?.(old)) return 0;
  const period = requested ?? r.strategy.defaultGracePeriodSeconds?.(old) ?? 0;
  return period < 0 ? 1 : period;
}
