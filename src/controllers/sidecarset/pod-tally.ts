/**
 * The status counts of every SidecarSet (docs/design/sidecarset.md §5, §12), kept up to date from pod
 * events: an event re-judges only the pod it carries, for the SidecarSets named in its injected
 * list, so a reconcile that finds nothing to upgrade costs what its event concerns instead of a walk
 * over every matched pod. A SidecarSet's tally is built from the pods the first time it is asked
 * for, and again when the set's spec or hashes change (its fingerprint) or any namespace's labels do.
 */
import type { Namespace, Pod } from '../../api/core/index.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../api/kruise/ops/sidecarset.js';
import { injectedSidecarSets, type SidecarSet } from '../../control/sidecarcontrol/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { EventHandler, Informer } from '../../runtime/informer.js';
import { needsHotReset } from './hot-upgrade.js';
import { isMatchedPod, isSidecarReady, isUpdatedPod } from './pod-state.js';

export interface TallyCounts {
  matchedPods: number;
  updatedPods: number;
  readyPods: number;
  updatedReadyPods: number;
  /** Matched pods with a hot-upgrade idle copy to put back on the empty image. */
  resetting: number;
}

type Flags = Omit<TallyCounts, 'matchedPods'>;

interface SetTally {
  fingerprint: string;
  pods: Map<string, Flags>;
  counts: TallyCounts;
}

const fingerprint = (set: SidecarSet): string => JSON.stringify([
  set.metadata.uid, set.metadata.generation, set.metadata.annotations?.[SidecarSetHashAnnotation], set.metadata.annotations?.[SidecarSetHashWithoutImageAnnotation],
]);
const podKey = (pod: Pod) => `${pod.metadata.namespace}/${pod.metadata.name}`;
const zero = (): TallyCounts => ({ matchedPods: 0, updatedPods: 0, readyPods: 0, updatedReadyPods: 0, resetting: 0 });

export class PodTally {
  private readonly tallies = new Map<string, SetTally>();
  /** Pods judged since construction: the work the tallies did (bench:sidecarset, tests). */
  judged = 0;

  constructor(private readonly d: { sets: Informer<SidecarSet>; namespaces: Informer<Namespace> }) {}

  /** The counts of `set`, built from `pods` (its injected pods) when the tally is missing or stale. */
  counts(set: SidecarSet, pods: () => Pod[]): TallyCounts {
    const name = set.metadata.name!;
    let t = this.tallies.get(name);
    if (!t || t.fingerprint !== fingerprint(set)) {
      t = { fingerprint: fingerprint(set), pods: new Map(), counts: zero() };
      this.tallies.set(name, t);
      for (const pod of pods()) this.judge(set, t, podKey(pod), pod);
    }
    return { ...t.counts };
  }

  /** Keeps the tallies in step with the pod cache. */
  podHandler(): EventHandler<Pod> {
    return {
      onAdd: (pod) => this.changed(undefined, pod),
      onUpdate: (old, pod) => this.changed(old, pod),
      onDelete: (pod) => this.changed(pod, undefined),
    };
  }

  /** A namespace's labels decide namespaceSelector matches: every tally is rebuilt on its next use. */
  namespaceHandler(): EventHandler<Namespace> {
    return {
      onAdd: () => this.tallies.clear(),
      onUpdate: (old, ns) => { if (!deepEqual(old.metadata.labels ?? {}, ns.metadata.labels ?? {})) this.tallies.clear(); },
      onDelete: () => this.tallies.clear(),
    };
  }

  private changed(old: Pod | undefined, pod: Pod | undefined): void {
    const key = podKey((pod ?? old)!);
    const names = new Set([...(old ? injectedSidecarSets(old) : []), ...(pod ? injectedSidecarSets(pod) : [])]);
    for (const name of names) {
      const t = this.tallies.get(name);
      if (!t) continue;
      const set = this.d.sets.get(undefined, name);
      if (!set || fingerprint(set) !== t.fingerprint) this.tallies.delete(name);
      else this.judge(set, t, key, pod);
    }
  }

  /** Replaces the pod's contribution to `t` (none when it is gone or not matched). */
  private judge(set: SidecarSet, t: SetTally, key: string, pod: Pod | undefined): void {
    this.judged++;
    const before = t.pods.get(key);
    if (before) {
      t.pods.delete(key);
      add(t.counts, before, -1);
    }
    if (!pod || !isMatchedPod(set, pod, this.namespaceLabels(pod.metadata.namespace!))) return;
    const updated = isUpdatedPod(set, pod);
    const ready = isSidecarReady(set, pod);
    const flags: Flags = { updatedPods: +updated, readyPods: +ready, updatedReadyPods: +(updated && ready), resetting: +needsHotReset(set, pod) };
    t.pods.set(key, flags);
    add(t.counts, flags, 1);
  }

  private namespaceLabels(name: string): Record<string, string> | undefined {
    const ns = this.d.namespaces.get(undefined, name);
    return ns ? (ns.metadata.labels ?? {}) : undefined;
  }
}

function add(counts: TallyCounts, flags: Flags, sign: 1 | -1): void {
  counts.matchedPods += sign;
  counts.updatedPods += sign * flags.updatedPods;
  counts.readyPods += sign * flags.readyPods;
  counts.updatedReadyPods += sign * flags.updatedReadyPods;
  counts.resetting += sign * flags.resetting;
}
