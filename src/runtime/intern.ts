/**
 * One copy of each repeated string value in cached objects. JSON.parse interns property names but
 * gives every string value its own copy, so a thousand cached pods hold a thousand copies of their
 * image, condition types, owner's apiVersion, node names and tolerations: about 2 MiB of the
 * manager's 27 MiB heap with 1,000 pods (docs/design/performance.md §5).
 * The table is bounded: when full it starts over, so unique values (uids, names, timestamps) cannot
 * make it grow without end, and the values every object repeats are learnt again at once.
 */

export class StringInterner {
  private table = new Map<string, string>();

  constructor(private readonly maxEntries = 8192, private readonly maxLength = 128) {}

  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const known = this.table.get(value);
    if (known !== undefined) return known;
    if (this.table.size >= this.maxEntries) this.table = new Map();
    this.table.set(value, value);
    return value;
  }

  /** Replaces, in place, every string value inside `value` (objects and arrays, any depth) by its interned copy. */
  internValues(value: unknown): void {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v === 'string') value[i] = this.intern(v);
        else if (typeof v === 'object' && v !== null) this.internValues(v);
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const v = record[key];
        if (typeof v === 'string') record[key] = this.intern(v);
        else if (typeof v === 'object' && v !== null) this.internValues(v);
      }
    }
  }

  size(): number {
    return this.table.size;
  }
}

/** The process's interner, shared by every informer (a pod's strings repeat in its ReplicaSet's, its node's, ...). */
export const cachedStrings = new StringInterner();
