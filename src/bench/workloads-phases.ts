/**
 * Pieces the workload scenarios share: the scale-up phase, per-pod stage lists (new pod, in place,
 * old pod replaced), and after-the-fact figures (pods kept and restarted, the most pods not Ready).
 */
import { SpecifiedDeleteLabel } from '../api/kruise/workloads/labels.js';
import type { KObject } from '../api/meta.js';
import type { PhaseSpec } from './workloads-scenario.js';
import type { Stage } from './workloads-stages.js';
import { conditionTrue, containersOnSpecImage, isLive, isReady, isScheduled, restartsOf, uidsOf } from './workloads-pods.js';
import type { StoreWatch } from './workloads-watch.js';

export const parseIntOrPercent = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);

/** Creating a workload of `n` pods, done when all are Ready; its status settling is a milestone. */
export function scaleUpPhase(o: { name: string; n: number; pods: StoreWatch; sets: StoreWatch; settled: (o: KObject) => boolean; create(): Promise<void> }): PhaseSpec {
  const { n, pods } = o;
  return {
    name: o.name, pods: n, done: 'all Ready', stages: { watch: pods, list: newPodStages(() => true) },
    start: o.create,
    milestones: [
      { name: 'all created', watch: pods, match: isLive, count: n },
      { name: 'all scheduled', watch: pods, match: (p) => isLive(p) && isScheduled(p), count: n },
      { name: 'all Ready', watch: pods, match: (p) => isLive(p) && isReady(p), count: n, exact: true },
      { name: 'status', watch: o.sets, match: o.settled, count: 1 },
    ],
  };
}

/** Of the pods `before`, how many still exist (same UID) and how many restarted containers since. */
export function keptAndRestarted(before: KObject[], after: KObject[]): { kept: number; restarted: number } {
  const uids = uidsOf(before);
  const restartsBefore = new Map(before.map((p) => [p.metadata.uid, restartsOf(p)]));
  return {
    kept: after.filter((p) => uids.has(p.metadata.uid)).length,
    restarted: after.filter((p) => restartsOf(p) > (restartsBefore.get(p.metadata.uid) ?? Infinity)).length,
  };
}

/** The most of `n` wanted pods missing a live Ready pod at any event since construction (the rollout budget in use). */
export class NotReadyTracker {
  private readonly ready = new Set<string>();
  private max: number;
  private readonly unlisten: () => void;

  constructor(watch: StoreWatch, private readonly n: number) {
    for (const p of watch.items()) if (isLive(p) && isReady(p)) this.ready.add(p.metadata.uid!);
    this.max = Math.max(0, n - this.ready.size);
    this.unlisten = watch.listen((p, gone) => {
      if (!gone && isLive(p) && isReady(p)) this.ready.add(p.metadata.uid!);
      else this.ready.delete(p.metadata.uid!);
      this.max = Math.max(this.max, this.n - this.ready.size);
    });
  }

  stop(): number {
    this.unlisten();
    return this.max;
  }
}

type PodCheck = (p: KObject) => boolean;
const kruisePodReady = conditionTrue('KruisePodReady');
const inPlaceUpdateReady = conditionTrue('InPlaceUpdateReady');

/** A pod the controller created: scheduled, containers up (simulated pull + start), readiness gates, Ready. */
export const newPodStages = (isNew: PodCheck): Stage[] => [
  { name: 'created', check: (p, gone) => !gone && isNew(p) },
  { name: 'scheduled', check: (p) => isNew(p) && isScheduled(p), from: 'created' },
  { name: 'containers ready', check: (p) => isNew(p) && containersOnSpecImage(p), from: 'scheduled' },
  { name: 'KruisePodReady', check: (p) => isNew(p) && kruisePodReady(p), from: 'created' },
  { name: 'InPlaceUpdateReady', check: (p) => isNew(p) && inPlaceUpdateReady(p), from: 'created' },
  { name: 'Ready', check: (p) => isNew(p) && isReady(p), from: 'containers ready' },
];

/** A pod updated in place: new revision written by the controller, containers restarted by the kubelet, Ready again. */
export const inPlaceStages = (updated: PodCheck): Stage[] => [
  { name: 'updated', check: (p) => updated(p) },
  // False before the spec update; True again by the controller's refresh once the kubelet reports the new
  // image, which can come before the restarted containers are ready
  { name: 'InPlaceUpdateReady', check: (p) => updated(p) && inPlaceUpdateReady(p), from: 'updated' },
  { name: 'containers ready', check: (p) => updated(p) && containersOnSpecImage(p), from: 'updated' },
  { name: 'Ready', check: (p) => updated(p) && isReady(p), from: 'containers ready' },
];

/** An old pod replaced: marked for deletion by the update phase, deleted by the scale phase, gone once the kubelet let go. */
export const oldPodStages = (updated: PodCheck): Stage[] => [
  { name: 'old marked', check: (p) => !updated(p) && p.metadata.labels?.[SpecifiedDeleteLabel] !== undefined },
  { name: 'old terminating', check: (p) => !updated(p) && !!p.metadata.deletionTimestamp, from: 'old marked' },
  { name: 'old gone', check: (p, gone) => !updated(p) && gone, from: 'old terminating' },
];
