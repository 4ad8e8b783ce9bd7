/**
 * The controller's pod creates and deletes as its client sends them (ahead of any cache), checked
 * one by one: a pod name is created once and a pod uid deleted once; a create never takes the
 * pods asked for beyond R + maxSurge; a delete needs a reason (specified-delete label, podsToDelete,
 * or more pods asked for than replicas).
 */
import { isLabelledForDelete, podKeyOf, type Pod, type SpecView } from './model.js';

/** What the decisions read from the watched CloneSet (Watched implements it). */
export interface DecisionSubject {
  readonly specs: readonly SpecView[];
  readonly pods: ReadonlyMap<string, Pod>;
  readonly podsToDelete: readonly string[];
  fail(message: string): void;
  note(line: string): void;
  readonly stats: { creates: number; deletes: number };
}

/** The pod and podsToDelete as the API server has them now (read only when the cache cannot tell). */
export type FreshView = () => Promise<{ pod?: Pod; podsToDelete: string[] }>;

export class Decisions {
  private readonly createdNames = new Set<string>();
  private readonly deletedUids = new Set<string>();
  /** Pods the controller has asked for and not asked to delete. */
  readonly intended = new Set<string>();
  readonly deletesByUid = new Map<string, number>();

  constructor(private readonly w: DecisionSubject) {}

  /** Before a create is sent; the callback gets whether it succeeded. */
  beforeCreate(pod: Pod): (ok: boolean) => void {
    const name = pod.metadata.name!;
    if (this.createdNames.has(name)) this.w.fail(`pod ${name} created twice`);
    this.createdNames.add(name);
    this.intended.add(name);
    const max = Math.max(...this.w.specs.map((s) => s.R + s.S));
    if (this.intended.size > max) this.w.fail(`create of ${name} makes ${this.intended.size} pods asked for, beyond replicas + maxSurge = ${max}`);
    this.w.note(`create ${name} (${podKeyOf(pod)}); asked for ${this.intended.size}`);
    return (ok) => {
      if (ok) this.w.stats.creates++;
      else this.intended.delete(name);
    };
  }

  /** Before a delete is sent; the callback gets whether the pod is gone (deleted, or not found). */
  async beforeDelete(name: string, uidHint: string | undefined, fresh: FreshView): Promise<(ok: boolean) => void> {
    const seen = this.w.pods.get(name);
    const uid = uidHint ?? seen?.metadata.uid ?? `?${name}`;
    if (this.deletedUids.has(uid)) this.w.fail(`pod ${name} (${uid}) deleted twice`);
    this.deletedUids.add(uid);
    this.deletesByUid.set(uid, (this.deletesByUid.get(uid) ?? 0) + 1);
    const askedFor = this.intended.size;
    const wasIntended = this.intended.delete(name);
    const minR = Math.min(...this.w.specs.map((s) => s.R));
    this.w.note(`delete ${name}; asked for ${askedFor} -> ${this.intended.size}`);
    if (askedFor <= minR && !isLabelledForDelete(seen) && !this.w.podsToDelete.includes(name)) {
      // the cache may lag behind the label or the podsToDelete entry the controller acted on
      const now = await fresh();
      if (!isLabelledForDelete(now.pod) && !now.podsToDelete.includes(name)) {
        this.w.fail(`delete of ${name} without a reason: not specified for deletion and ${askedFor} pods asked for, replicas ${minR}`);
      }
    }
    return (ok) => {
      if (ok) {
        this.w.stats.deletes++;
        return;
      }
      this.deletedUids.delete(uid);
      if (wasIntended) this.intended.add(name);
    };
  }
}
