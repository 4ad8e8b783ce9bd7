/**
 * Watches the sets and pods of a property run and checks rollout invariants on every event:
 * - at most maxUnavailable in-range pods not Ready (or terminating), except while a scale change
 *   settles (scaling legitimately moves pods in and out of the range);
 * - a pod below the partition never changes revision and is never deleted. The partition in
 *   force at a pod event is the lowest of every spec write the controller may still have been
 *   acting on: written before the event and not yet superseded by a later write the controller
 *   acknowledged (status.observedGeneration) before the event, by resourceVersion order.
 */
import { AdvancedStatefulSets } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client, WatchHandle } from '../../client/client.js';
import { isLive, isPodReady, ns, ordinal, revisionOf, type Pod, type StatefulSet } from './fixtures.js';

interface SpecWrite {
  rv: number;
  generation: number;
  partition: number;
}

interface Tracked {
  maxUnavailable: number;
  replicas: number;
  writes: SpecWrite[];
  acks: Map<number, number>;
  /** Not-Ready checks are off until the set is quiet after a scale change. */
  scaling: boolean;
}

const rvOf = (o: { metadata: { resourceVersion?: string } }) => Number(o.metadata.resourceVersion ?? 0);
const partitionOf = (s: StatefulSet) => s.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;

export class RolloutMonitor {
  private readonly sets = new Map<string, Tracked>();
  private readonly pods = new Map<string, Pod>();
  private readonly handles: WatchHandle[] = [];
  readonly violations: string[] = [];

  constructor(private readonly client: Client, private readonly label: string) {}

  start(): void {
    this.handles.push(this.client.watch<StatefulSet>(AdvancedStatefulSets, { namespace: ns }, {
      onEvent: (e) => { if (e.type !== 'ERROR' && e.type !== 'BOOKMARK') this.onSet(e.object as StatefulSet); },
      onClose: (err) => { if (err) this.violations.push(`set watch closed: ${String(err)}`); },
    }));
    this.handles.push(this.client.watch<Pod>(Pods, { namespace: ns, labelSelector: this.label }, {
      onEvent: (e) => { if (e.type !== 'ERROR' && e.type !== 'BOOKMARK') this.onPod(e.type, e.object as Pod); },
      onClose: (err) => { if (err) this.violations.push(`pod watch closed: ${String(err)}`); },
    }));
  }

  stop(): void {
    for (const h of this.handles) h.stop();
  }

  /** Records a spec write (the object the server returned); `scaled` suspends the not-Ready check. */
  wrote(set: StatefulSet, maxUnavailable: number, scaled: boolean): void {
    const name = set.metadata.name!;
    const t: Tracked = this.sets.get(name) ?? { maxUnavailable, replicas: 0, writes: [], acks: new Map(), scaling: true };
    t.writes.push({ rv: rvOf(set), generation: set.metadata.generation ?? 0, partition: partitionOf(set) });
    t.replicas = set.spec?.replicas ?? 1;
    if (scaled) t.scaling = true;
    this.sets.set(name, t);
  }

  private onSet(set: StatefulSet): void {
    const t = this.sets.get(set.metadata.name!);
    const observed = set.status?.observedGeneration ?? 0;
    if (!t) return;
    for (const w of t.writes) if (w.generation <= observed && !t.acks.has(w.generation)) t.acks.set(w.generation, rvOf(set));
  }

  /** The lowest partition the controller may have been acting on at `rv`. */
  protectedBelow(name: string, rv: number): number {
    const t = this.sets.get(name);
    if (!t) return 0;
    let from = 0;
    t.writes.forEach((w, i) => { const ack = t.acks.get(w.generation); if (ack !== undefined && ack < rv) from = i; });
    const live = t.writes.slice(from).filter((w) => w.rv < rv);
    return live.length ? Math.min(...live.map((w) => w.partition)) : 0;
  }

  private onPod(type: string, pod: Pod): void {
    const name = pod.metadata.name!;
    const set = name.slice(0, name.lastIndexOf('-'));
    const before = this.pods.get(name);
    if (type === 'DELETED') this.pods.delete(name);
    else this.pods.set(name, pod);
    const guard = this.protectedBelow(set, rvOf(pod));
    const k = ordinal(pod);
    if (before && k < guard && before.metadata.uid === pod.metadata.uid) {
      if (revisionOf(before) !== revisionOf(pod)) this.violations.push(`${name} below partition ${guard} changed revision`);
      if (!before.metadata.deletionTimestamp && pod.metadata.deletionTimestamp) this.violations.push(`${name} below partition ${guard} deleted`);
    }
    this.checkUnavailable(set);
  }

  private checkUnavailable(name: string): void {
    const t = this.sets.get(name);
    if (!t) return;
    const mine = [...this.pods.values()].filter((p) => p.metadata.name!.slice(0, p.metadata.name!.lastIndexOf('-')) === name);
    const inRange = mine.filter((p) => ordinal(p) < t.replicas);
    const down = inRange.filter((p) => !isLive(p) || !isPodReady(p)).length;
    if (t.scaling) {
      if (down === 0 && inRange.length === t.replicas && mine.every(isLive)) t.scaling = false;
      return;
    }
    if (down > t.maxUnavailable) this.violations.push(`${name}: ${down} pods unavailable, maxUnavailable ${t.maxUnavailable}`);
  }
}
