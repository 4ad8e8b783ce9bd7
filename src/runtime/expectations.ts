/**
 * Expectations stop a controller from acting twice on a stale cache (kruise's scale expectations):
 * before creating or deleting a child, record `expect(controllerKey, 'create', childName)`; the event
 * handlers `observe` the child appearing or vanishing in the cache; reconcile waits (requeue after
 * `waitMs`) until `satisfied`. Expectations older than the timeout count as satisfied and as a leak
 * (a lost event, or a write that failed without being un-expected). One store per controller instance.
 */
import { realClock, type Clock } from '../machinery/clock.js';

export type ScaleAction = 'create' | 'delete';

export interface ExpectationsOptions {
  clock?: Clock;
  /** After this long unsatisfied, expectations are given up as leaked (default 5 minutes). */
  timeoutMs?: number;
  /** Called once per leaked controller key (wire a metric here). */
  onLeak?: (key: string) => void;
}

interface Pending {
  create: Set<string>;
  delete: Set<string>;
  /** When the oldest pending expectation of this key was recorded. */
  since: number;
}

export class ScaleExpectations {
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly onLeak: (key: string) => void;
  private readonly pending = new Map<string, Pending>();
  private leakCount = 0;

  constructor(options: ExpectationsOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.timeoutMs = options.timeoutMs ?? 5 * 60_000;
    if (this.timeoutMs <= 0) throw new Error(`expectation timeout must be positive, got ${this.timeoutMs}`);
    this.onLeak = options.onLeak ?? (() => undefined);
  }

  expect(key: string, action: ScaleAction, name: string): void {
    let p = this.pending.get(key);
    if (!p) this.pending.set(key, (p = { create: new Set(), delete: new Set(), since: this.clock.now() }));
    p[action].add(name);
  }

  /** The cache has caught up with one expected write (or the write failed and will not happen). */
  observe(key: string, action: ScaleAction, name: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    p[action].delete(name);
    if (p.create.size === 0 && p.delete.size === 0) this.pending.delete(key);
  }

  satisfied(key: string): boolean {
    const p = this.pending.get(key);
    if (!p) return true;
    if (this.clock.now() - p.since < this.timeoutMs) return false;
    this.pending.delete(key);
    this.leakCount++;
    this.onLeak(key);
    return true;
  }

  /** How long until `key`'s expectations time out (0 when satisfied): a requeue delay for reconcile. */
  waitMs(key: string): number {
    const p = this.pending.get(key);
    return p ? Math.max(0, p.since + this.timeoutMs - this.clock.now()) : 0;
  }

  /** Names still expected, for logs. */
  pendingFor(key: string): { create: string[]; delete: string[] } {
    const p = this.pending.get(key);
    return { create: [...(p?.create ?? [])], delete: [...(p?.delete ?? [])] };
  }

  /** Forget `key` entirely (its controller object was deleted). */
  delete(key: string): void {
    this.pending.delete(key);
  }

  leaks(): number {
    return this.leakCount;
  }
}

/**
 * ResourceVersion expectations for a controller's own updates: after writing an object, remember
 * the resourceVersion the server returned, and do not act on a cached copy older than that.
 */
export class ResourceVersionExpectations {
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly onLeak: (key: string) => void;
  private readonly expected = new Map<string, { rv: string; since: number }>();
  private leakCount = 0;

  constructor(options: ExpectationsOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.timeoutMs = options.timeoutMs ?? 5 * 60_000;
    this.onLeak = options.onLeak ?? (() => undefined);
  }

  expectUpdated(key: string, written: { metadata: { resourceVersion?: string } }): void {
    const rv = written.metadata.resourceVersion;
    if (rv) this.expected.set(key, { rv, since: this.clock.now() });
  }

  isUpdatedSatisfied(key: string, cached: { metadata: { resourceVersion?: string } } | undefined): boolean {
    const e = this.expected.get(key);
    if (!e) return true;
    if (cached && !olderThan(cached.metadata.resourceVersion, e.rv)) {
      this.expected.delete(key);
      return true;
    }
    if (this.clock.now() - e.since < this.timeoutMs) return false;
    this.expected.delete(key);
    this.leakCount++;
    this.onLeak(key);
    return true;
  }

  delete(key: string): void {
    this.expected.delete(key);
  }

  leaks(): number {
    return this.leakCount;
  }
}

/**
 * resourceVersions are opaque, but every server we talk to uses integers; compare those as numbers.
 * A pass asks this for every pod: integers without leading zeros compare by length, then as text
 * (no regex, no BigInt).
 */
function olderThan(rv: string | undefined, than: string): boolean {
  if (!rv) return true;
  if (!isDigits(rv) || !isDigits(than)) return rv !== than;
  const plain = (s: string) => s.length === 1 || s.charCodeAt(0) !== 48; // no leading zero
  if (plain(rv) && plain(than)) return rv.length !== than.length ? rv.length < than.length : rv < than;
  return BigInt(rv) < BigInt(than);
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
