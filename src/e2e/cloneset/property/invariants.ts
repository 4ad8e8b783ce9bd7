/**
 * The invariants checked on every pod or CloneSet event of one watched CloneSet:
 *  - availability (docs/design/cloneset.md §7 updateMaxUnavailable and the delete budget): whenever a pod stops being
 *    available (unready, updating, terminating, deleted) for a reason other than a readiness flap of
 *    ours, at least R − U pods are still available, for R and U of every spec the controller may
 *    still be acting on (from the last one it has observed to the newest). A flap is an outside
 *    disruption: it may take availability below R − U, and the controller may then remove the
 *    flapped pod for free, but it must not take an available pod with it;
 *  - surge: a new pod never makes non-terminating pods exceed R + maxSurge;
 *  - partition and paused: pods left on an old revision at a settled point keep their revision and
 *    stay, while the spec keeps them out of reach.
 */
import { isAvailable, podKeyOf, revisionOf, type Pod, type SpecView } from './model.js';

/** How long after a flap ends the controller's cache may still show the pod unready. */
const flapLagMs = 5_000;
/**
 * How long after its cache shows a flap the controller may still act on a pass planned before:
 * a delete or in-place update sent within it may count the flapped pod as available.
 */
const decisionLagMs = 1_000;

/** What the checks read from the watched CloneSet (Watched implements it). */
export interface InvariantSubject {
  readonly specs: readonly SpecView[];
  readonly latest: SpecView;
  live(): Pod[];
  fail(message: string): void;
  note(line: string): void;
  readonly stats: { minSlack: number; protections: number };
}

export class Invariants {
  /** Pods available at the last check, by uid. */
  private available = new Set<string>();
  /**
   * Pods we made not ready, by uid, with the time readiness came back. Losing one is no budget
   * use while the flap lasts and for `flapLagMs` after: the controller's cache may still show it
   * unready, and an unready pod may be deleted or updated for free.
   */
  private readonly flapped = new Map<string, { startedAt: number; seenAt?: number; restoredAt?: number }>();
  /** When the controller's client last sent a delete or an update of each pod, by uid. */
  private readonly disruptionSentAt = new Map<string, number>();
  private readonly protectedRevs = new Map<string, string>();

  constructor(private readonly w: InvariantSubject) {}

  flapStarted(uid: string): void {
    this.flapped.set(uid, { startedAt: Date.now() });
  }

  flapEnded(uid: string): void {
    const flap = this.flapped.get(uid);
    if (flap) flap.restoredAt = Date.now();
  }

  disruptionSent(uid: string): void {
    this.disruptionSentAt.set(uid, Date.now());
  }

  /** A live pod is still flapped (a pod removed meanwhile does not count). */
  flapInProgress(): boolean {
    return this.w.live().some((p) => {
      const flap = this.flapped.get(p.metadata.uid!);
      return flap !== undefined && flap.restoredAt === undefined;
    });
  }

  /** Before `next` joins the spec window: protection ends if it could move protected pods. */
  specPushed(prev: SpecView | undefined, next: SpecView): void {
    if (!prev || this.protectedRevs.size === 0) return;
    const keep = prev.R === next.R && (next.paused || (!prev.paused && prev.key === next.key && next.P >= prev.P));
    if (keep) return;
    this.w.note(`protection of ${this.protectedRevs.size} pods ends`);
    this.protectedRevs.clear();
  }

  /** At a settled point: pods the spec keeps where they are (all when paused, else the old ones). */
  protect(): void {
    const spec = this.w.latest;
    for (const pod of this.w.live()) {
      if (spec.paused || podKeyOf(pod) !== spec.key) this.protectedRevs.set(pod.metadata.uid!, revisionOf(pod) ?? '');
    }
    if (this.protectedRevs.size === 0) return;
    this.w.stats.protections++;
    this.w.note(`protecting ${this.protectedRevs.size} pods (P=${spec.P}, paused=${spec.paused})`);
  }

  /** All invariants; `added`: a new pod just appeared. */
  check(added: boolean): void {
    const { specs } = this.w;
    if (specs.length === 0) return;
    const live = this.w.live();
    const maxLive = Math.max(...specs.map((s) => s.R + s.S));
    if (added && live.length > maxLive) this.w.fail(`a new pod makes ${live.length} live pods, beyond replicas + maxSurge = ${maxLive}`);
    this.checkAvailability(live);
    this.checkProtected(live);
  }

  private checkAvailability(live: Pod[]): void {
    const now = new Set(live.filter(isAvailable).map((p) => p.metadata.uid!));
    // the controller's informers receive a pod's events as ours do: a flap is visible to it from here
    for (const p of live) {
      const flap = this.flapped.get(p.metadata.uid!);
      if (flap && flap.seenAt === undefined && !now.has(p.metadata.uid!)) flap.seenAt = Date.now();
    }
    const lost = [...this.available].filter((uid) => !now.has(uid) && !this.flapRecent(uid));
    this.available = now;
    if (lost.length === 0) return;
    const specs = this.w.specs;
    const floor = Math.max(0, Math.min(...specs.map((s) => s.R - s.U)));
    if (floor > 0) this.w.stats.minSlack = Math.min(this.w.stats.minSlack, now.size - floor);
    if (now.size >= floor) return;
    // Deletes and in-place updates decided before the controller could see a flap may land after
    // it (they wait on admission webhooks): the controller kept R − U on what it saw, and the
    // flap, an outside disruption, took the rest.
    const sentAt = Math.max(...lost.map((uid) => this.disruptionSentAt.get(uid) ?? Infinity));
    const unseenBy = (p: Pod) => {
      const flap = this.flapped.get(p.metadata.uid!);
      return flap !== undefined && (flap.seenAt ?? Infinity) + decisionLagMs > sentAt;
    };
    const flappedSince = live.filter((p) => !isAvailable(p) && unseenBy(p)).length;
    if (now.size + flappedSince >= floor) {
      this.w.note(`availability ${now.size} below ${floor}: deletes or updates decided before ${flappedSince} flap(s) were seen landed after them`);
      return;
    }
    const flapped = live.filter((p) => !isAvailable(p) && this.flapRecent(p.metadata.uid!)).length;
    this.w.fail(`availability ${now.size} (+${flapped} flapped) fell below ${floor} (specs ${specs.map((s) => `R=${s.R} U=${s.U}`).join(', ')}): `
      + live.map((p) => `${p.metadata.name}:${isAvailable(p) ? 'available' : 'unavailable'}`).join(' '));
  }

  private checkProtected(live: Pod[]): void {
    for (const [uid, rev] of this.protectedRevs) {
      const pod = live.find((p) => p.metadata.uid === uid);
      const P = this.w.latest.P;
      if (!pod) this.w.fail(`pod ${uid} on old revision ${rev} was removed while partition/pause keeps it (P=${P})`);
      else if (revisionOf(pod) !== rev) this.w.fail(`pod ${pod.metadata.name} moved ${rev} -> ${revisionOf(pod)} while partition/pause keeps it (P=${P})`);
      if (!pod || revisionOf(pod) !== rev) this.protectedRevs.delete(uid);
    }
  }

  /** The pod is flapped now or was until `flapLagMs` ago. */
  private flapRecent(uid: string): boolean {
    const flap = this.flapped.get(uid);
    return flap !== undefined && (flap.restoredAt === undefined || Date.now() - flap.restoredAt < flapLagMs);
  }
}
