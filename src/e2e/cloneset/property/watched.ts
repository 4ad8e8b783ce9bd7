/**
 * One watched CloneSet: its pods and status as the observer's own informers show them, the window
 * of specs the controller may be acting on, a trace, and the checks run on every event
 * (invariants.ts), on every controller decision (decisions.ts) and at settled points (here).
 */
import type { CloneSet, CloneSetStatus } from '../../../api/kruise/workloads/cloneset.js';
import { Decisions } from './decisions.js';
import { Invariants } from './invariants.js';
import { isAvailable, isLabelledForDelete, isTerminating, podKeyOf, revisionOf, type Pod, type SpecView } from './model.js';

export class Watched {
  /** Owned pods by name, terminating ones included. */
  readonly pods = new Map<string, Pod>();
  /** Every pod ever seen, by name: uid, and whether it is gone (terminating or deleted). */
  readonly everSeen = new Map<string, { uid: string; gone: boolean }>();
  /** Specs the controller may act on: from the newest it has observed to the newest written. */
  specs: SpecView[] = [];
  status?: CloneSetStatus;
  podsToDelete: string[] = [];
  readonly stats = { creates: 0, deletes: 0, inPlace: 0, minSlack: Infinity, protections: 0 };
  /** In-place revision changes seen per pod uid. */
  readonly inPlaceByUid = new Map<string, number>();
  readonly violations: string[] = [];
  readonly trace: string[] = [];
  readonly invariants: Invariants = new Invariants(this);
  readonly decisions: Decisions = new Decisions(this);
  /** Self-tests: the checks take maxUnavailable as this much smaller than the controller does. */
  budgetSkew = 0;
  private waiters: (() => void)[] = [];
  private readonly started = Date.now();

  constructor(readonly name: string) {}

  get latest(): SpecView {
    return this.specs[this.specs.length - 1]!;
  }

  note(line: string): void {
    if (this.trace.length < 400) this.trace.push(`+${Date.now() - this.started}ms ${line}`);
  }

  fail(message: string): void {
    if (this.violations.includes(message)) return;
    this.note(`VIOLATION ${message}`);
    if (this.violations.length < 10) this.violations.push(message);
  }

  live(): Pod[] {
    return [...this.pods.values()].filter((p) => !isTerminating(p));
  }

  /** Before writing a spec: it joins the window. */
  pushSpec(next: SpecView): void {
    next.U = Math.max(0, next.U - this.budgetSkew);
    this.invariants.specPushed(this.specs[this.specs.length - 1], next);
    this.specs.push(next);
  }

  written(view: SpecView, generation: number): void {
    view.generation = generation;
    this.catchUp();
    this.check(false);
  }

  onPod(pod: Pod, deleted: boolean): void {
    const name = pod.metadata.name!;
    const uid = pod.metadata.uid!;
    const before = this.pods.get(name);
    const gone = deleted || isTerminating(pod);
    if (deleted) this.pods.delete(name);
    else this.pods.set(name, pod);
    this.everSeen.set(name, { uid, gone });
    if (before && !deleted && before.metadata.uid === uid && revisionOf(before) !== revisionOf(pod)) {
      this.stats.inPlace++;
      this.inPlaceByUid.set(uid, (this.inPlaceByUid.get(uid) ?? 0) + 1);
      this.note(`pod ${name} revision ${revisionOf(before)} -> ${revisionOf(pod)}`);
    }
    this.check(!before && !gone);
  }

  onCloneSet(cs: CloneSet): void {
    this.status = cs.status;
    this.podsToDelete = cs.spec?.scaleStrategy?.podsToDelete ?? [];
    this.catchUp();
    this.check(false);
  }

  /** At a settled point: pods the spec keeps where they are stay there. */
  protect(): void {
    this.invariants.protect();
  }

  /** Why the CloneSet is not settled (undefined when it is). */
  notSettled(): string | undefined {
    const spec = this.latest;
    const st = this.status;
    if (!(spec.generation <= (st?.observedGeneration ?? 0))) return `observedGeneration ${st?.observedGeneration} < ${spec.generation}`;
    const pods = [...this.pods.values()];
    if (pods.some(isTerminating)) return 'pods terminating';
    if (pods.length !== spec.R) return `${pods.length} pods, want ${spec.R}`;
    const unavailable = pods.filter((p) => !isAvailable(p));
    if (unavailable.length > 0) return `unavailable: ${unavailable.map((p) => p.metadata.name).join(',')}`;
    if (pods.some((p) => isLabelledForDelete(p) || this.podsToDelete.includes(p.metadata.name!))) return 'specified-delete pending';
    if (this.invariants.flapInProgress()) return 'flap in progress';
    const old = pods.filter((p) => podKeyOf(p) !== spec.key).length;
    if (!spec.paused && old > spec.P) return `${old} pods not updated, partition ${spec.P}`;
    if (st!.replicas !== spec.R || st!.readyReplicas !== spec.R || st!.availableReplicas !== spec.R) {
      return `status replicas/ready/available ${st!.replicas}/${st!.readyReplicas}/${st!.availableReplicas}, want ${spec.R}`;
    }
    const onUpdate = pods.filter((p) => revisionOf(p) === st!.updateRevision).length;
    if (st!.updatedReplicas !== onUpdate) return `status.updatedReplicas ${st!.updatedReplicas}, ${onUpdate} pods on ${st!.updateRevision}`;
    return undefined;
  }

  /** Checks of the settled final state beyond notSettled. */
  finalProblems(): string[] {
    const spec = this.latest;
    const st = this.status!;
    const pods = this.live();
    const out: string[] = [];
    for (const pod of pods) {
      if ((revisionOf(pod) === st.updateRevision) !== (podKeyOf(pod) === spec.key)) out.push(`pod ${pod.metadata.name} has revision ${revisionOf(pod)} but template ${podKeyOf(pod)} (update revision ${st.updateRevision})`);
      const restarts = pod.status?.containerStatuses?.[0]?.restartCount ?? 0;
      const changes = this.inPlaceByUid.get(pod.metadata.uid!) ?? 0;
      if (restarts > changes) out.push(`pod ${pod.metadata.name} restarted ${restarts} times for ${changes} in-place revision changes`);
    }
    const old = pods.filter((p) => podKeyOf(p) !== spec.key).length;
    if (old === 0 && st.currentRevision !== st.updateRevision) out.push(`all pods updated but currentRevision ${st.currentRevision} != updateRevision ${st.updateRevision}`);
    if (st.expectedUpdatedReplicas !== spec.R - spec.P) out.push(`expectedUpdatedReplicas ${st.expectedUpdatedReplicas}, want R − P = ${spec.R - spec.P}`);
    const intended = this.decisions.intended;
    if (intended.size !== pods.length) out.push(`controller asked for ${intended.size} pods (${[...intended].join(',')}) but ${pods.length} exist`);
    return out;
  }

  /** Resolves with undefined once `reason()` is undefined, or with the last reason after `timeoutMs`. */
  until(reason: () => string | undefined, timeoutMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        resolve(reason());
      }, timeoutMs);
      const test = () => {
        if (done) return;
        if (reason() !== undefined) return void this.waiters.push(test);
        done = true;
        clearTimeout(timer);
        resolve(undefined);
      };
      test();
    });
  }

  /** Once status shows the newest written generation, older specs leave the window. */
  private catchUp(): void {
    const latest = this.latest;
    if (this.specs.length > 1 && (this.status?.observedGeneration ?? 0) >= latest.generation) {
      this.specs = [latest];
    }
  }

  private check(added: boolean): void {
    if (this.specs.length === 0) return;
    this.invariants.check(added);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
