/**
 * Comparing and ordering revisions. Equality is semantic (docs/design/workload-common.md §3): the recorded data with
 * nulls, empty objects and empty arrays dropped, so a revision written by upstream Kruise (Go emits
 * `creationTimestamp: null`, `resources: {}`) equals ours for the same template and is reused.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import type { ControllerRevision } from '../../api/core/index.js';
import { oldestFirst } from '../../machinery/order.js';

/** JSON with the patch directive, nulls, `{}` and `[]` removed (recursively); undefined when nothing is left. */
export function normalizeData(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => normalizeData(v) ?? null);
    return items.length ? items : undefined;
  }
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === '$patch') continue;
    const n = normalizeData(v);
    if (n !== undefined) out[k] = n;
  }
  return Object.keys(out).length ? out : undefined;
}

export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (!a || !b) return a === b;
  return deepEqual(normalizeData(a.data), normalizeData(b.data));
}

/** The revisions equal to `candidate`, in the order given. */
export function findEqualRevisions(revisions: readonly ControllerRevision[], candidate: ControllerRevision): ControllerRevision[] {
  const want = normalizeData(candidate.data);
  return revisions.filter((r) => deepEqual(normalizeData(r.data), want));
}

/** Oldest first: by revision number, then creation time, then name. */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0)
    || oldestFirst(a, b));
}

/** One past the highest revision number (1 for an empty history). */
export function nextRevisionNumber(revisions: readonly ControllerRevision[]): number {
  return revisions.reduce((max, r) => Math.max(max, r.revision ?? 0), 0) + 1;
}
