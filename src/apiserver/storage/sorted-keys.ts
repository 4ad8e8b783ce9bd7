/**
 * A set of keyed items sorted by key, kept as a list of small sorted chunks (the idea behind
 * Python's sortedcontainers): insert and delete cost a binary search plus a short splice, and a
 * range scan from any key walks the chunks in order. Keys compare with JS `<` (UTF-16 code units),
 * which matches byte order for the ASCII keys the store uses.
 */

export interface Keyed {
  readonly key: string;
}

export class SortedKeys<T extends Keyed> {
  private chunks: T[][] = [];
  private count = 0;

  /** `maxChunk` bounds the splice cost of an insert; tests pass a tiny one to exercise splits. */
  constructor(private readonly maxChunk = 1024) {}

  get size(): number {
    return this.count;
  }

  /** Adds an item whose key is not yet present. */
  add(item: T): void {
    const key = item.key;
    if (this.chunks.length === 0) {
      this.chunks.push([item]);
      this.count = 1;
      return;
    }
    const ci = Math.min(this.chunkFor(key), this.chunks.length - 1);
    const chunk = this.chunks[ci]!;
    chunk.splice(lowerBound(chunk, key), 0, item);
    this.count++;
    if (chunk.length > this.maxChunk) this.chunks.splice(ci + 1, 0, chunk.splice(chunk.length >> 1));
  }

  /** Removes the item with this key; does nothing when there is none. */
  delete(key: string): void {
    const ci = this.chunkFor(key);
    const chunk = this.chunks[ci];
    if (!chunk) return;
    const i = lowerBound(chunk, key);
    if (chunk[i]?.key !== key) return;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(ci, 1);
  }

  /**
   * Visits items in key order starting at key `from` (or just after it when `exclusive`) until
   * `visit` returns false. The set must not change during the scan.
   */
  scan(from: string, exclusive: boolean, visit: (item: T) => boolean): void {
    const first = this.chunkFor(from);
    for (let ci = first; ci < this.chunks.length; ci++) {
      const chunk = this.chunks[ci]!;
      let i = ci === first ? lowerBound(chunk, from) : 0;
      if (exclusive && chunk[i]?.key === from) i++;
      for (; i < chunk.length; i++) if (!visit(chunk[i]!)) return;
    }
  }

  /** Index of the first chunk whose last key is >= key (chunks.length when none). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = this.chunks[mid]!;
      if (chunk[chunk.length - 1]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Index of the first item whose key is >= key. */
function lowerBound(sorted: readonly Keyed[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
