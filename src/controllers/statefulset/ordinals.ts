/**
 * Ordinals of an Advanced StatefulSet (docs/design/advanced-statefulset.md §6): the first ordinal (`ordinals.start`
 * behind gate StatefulSetStartOrdinal), reserved ordinals (ints and inclusive "a-b" ranges), the
 * replica range [start, end) that holds `replicas` unreserved ordinals, and pod names.
 */
import type { GateReader, IntOrPercent, StatefulSet } from './types.js';

/** Inclusive [low, high] intervals of reserved ordinals. */
export type ReservedOrdinals = readonly (readonly [number, number])[];

/** Parses `reserveOrdinals`; entries that are neither ints ≥ 0 nor "a-b" with a ≤ b are ignored (the webhook rejects them). */
export function parseReserveOrdinals(values: readonly IntOrPercent[] | undefined): ReservedOrdinals {
  const out: [number, number][] = [];
  for (const v of values ?? []) {
    if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= 0) out.push([v, v]);
      continue;
    }
    const m = typeof v === 'string' ? /^(\d+)-(\d+)$/.exec(v) : null;
    if (m && Number(m[1]) <= Number(m[2])) out.push([Number(m[1]), Number(m[2])]);
  }
  return out;
}

export function isReserved(reserved: ReservedOrdinals, ordinal: number): boolean {
  return reserved.some(([lo, hi]) => ordinal >= lo && ordinal <= hi);
}

/** The first ordinal past `ordinal` that may be reserved-skipped in one step (end of its range + 1). */
function skipReserved(reserved: ReservedOrdinals, ordinal: number): number {
  let n = ordinal;
  for (let moved = true; moved;) {
    moved = false;
    for (const [lo, hi] of reserved) if (n >= lo && n <= hi) { n = hi + 1; moved = true; }
  }
  return n;
}

export interface ReplicaRange {
  start: number;
  /** One past the last ordinal taken. */
  end: number;
  reserved: ReservedOrdinals;
}

export function startOrdinal(set: StatefulSet, gate: GateReader): number {
  return gate('StatefulSetStartOrdinal') ? Math.max(0, set.spec.ordinals?.start ?? 0) : 0;
}

/** Walks ordinals from the start, skipping reserved ones, until `replicas` are taken. */
export function replicaRange(set: StatefulSet, gate: GateReader): ReplicaRange {
  const start = startOrdinal(set, gate);
  const reserved = parseReserveOrdinals(set.spec.reserveOrdinals);
  const replicas = Math.max(0, set.spec.replicas ?? 1);
  let next = start;
  for (let taken = 0; taken < replicas; taken++) next = skipReserved(reserved, next) + 1;
  return { start, end: next, reserved };
}

export function inRange(range: ReplicaRange, ordinal: number): boolean {
  return ordinal >= range.start && ordinal < range.end && !isReserved(range.reserved, ordinal);
}

export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

/** The ordinal of a pod named `<set>-<n>`; undefined for any other name (such pods are ignored). */
export function ordinalOf(setName: string, podName: string | undefined): number | undefined {
  const prefix = `${setName}-`;
  if (!podName?.startsWith(prefix)) return undefined;
  const rest = podName.slice(prefix.length);
  return /^(0|[1-9]\d{0,9})$/.test(rest) ? Number(rest) : undefined;
}
