/**
 * Orders as upstream's Go code sorts: strings by their bytes (for the ASCII of Kubernetes names,
 * kinds and RFC 3339 timestamps the same as JavaScript's `<`). Not `localeCompare`: ICU's collation
 * puts `a` before `B` and weighs punctuation its own way, and its first call maps 2.6 MiB of
 * collation data into the process.
 */
import type { ObjectMeta } from '../api/meta.js';

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Named = { metadata: ObjectMeta };

/** Oldest first by creationTimestamp; swap the arguments for newest first. */
export function byCreation(a: Named, b: Named): number {
  return compareStrings(a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '');
}

/** Oldest first, then by name (a timestamp has whole seconds only). */
export function oldestFirst(a: Named, b: Named): number {
  return byCreation(a, b) || byName(a, b);
}

export function byName(a: Named, b: Named): number {
  return compareStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}
