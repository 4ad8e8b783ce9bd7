/**
 * Indexed Jobs: `status.completedIndexes` in its compressed form (`1,3-5,7`), the completion index a
 * pod carries in its annotation, and which indexes still need a pod.
 */
import { isPodReady } from '../../../control/podutil/index.js';
import { completionIndexAnnotation } from './types.js';
import type { Pod } from '../../../api/core/index.js';

/** Parses `1,3-5,7` into a sorted set; indexes at or past `completions` are dropped. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    for (let i = first; i <= last && i < completions; i++) out.add(i);
  }
  return out;
}

/** The compressed form: every run of consecutive indexes (two or more) becomes `a-b`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The pod's completion index, or undefined when missing or not a valid non-negative integer. */
export function podIndex(pod: Pod): number | undefined {
  const text = pod.metadata.annotations?.[completionIndexAnnotation];
  if (text === undefined || !/^(0|[1-9]\d*)$/.test(text)) return undefined;
  return Number(text);
}

export interface IndexPlan {
  /** Indexes to create pods for, lowest first, at most `room`. */
  create: number[];
  /** Active pods to delete: duplicates of an index, or with no valid index. */
  remove: Pod[];
}

/**
 * For active pods of an Indexed Job: keep one pod per pending index, and pick up to `room` indexes
 * that are neither completed nor running (nor held by a terminating pod, when `busy` lists those).
 */
export function planIndexes(active: Pod[], completed: Set<number>, completions: number, room: number, busy: Set<number> = new Set()): IndexPlan {
  const seen = new Set<number>();
  const remove: Pod[] = [];
  const ordered = [...active].sort((a, b) => Number(isPodReady(b)) - Number(isPodReady(a)));
  for (const pod of ordered) {
    const i = podIndex(pod);
    if (i === undefined || i >= completions || seen.has(i) || completed.has(i)) remove.push(pod);
    else seen.add(i);
  }
  const create: number[] = [];
  for (let i = 0; i < completions && create.length < room; i++) {
    if (!completed.has(i) && !seen.has(i) && !busy.has(i)) create.push(i);
  }
  return { create, remove };
}
