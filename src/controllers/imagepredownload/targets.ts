/**
 * The workloads whose in-place rollouts pre-download images (docs/design/image-pulling.md §10), each
 * as a target: which revisions are rolling, when the jobs may start, and what the jobs inherit.
 * CloneSet and Advanced StatefulSet follow gate PreDownloadImageForInPlaceUpdate, Advanced
 * DaemonSet gate PreDownloadImageForDaemonSetUpdate.
 */
import type { ControllerRevision, PodTemplateSpec } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import type { DaemonSet } from '../../api/kruise/workloads/daemonset.js';
import {
  ControllerRevisionHashKey, ImagePreDownloadMinUpdatedReadyPodsAnnotation, ImagePreDownloadParallelismAnnotation, ImagePreDownloadTimeoutSecondsAnnotation, PodUpdatePolicy,
} from '../../api/kruise/workloads/labels.js';
import type { StatefulSet } from '../../api/kruise/workloads/statefulset.js';
import type { ResourceType } from '../../api/resource-type.js';
import { scaledValue, type IntOrPercent } from '../../machinery/int-or-percent.js';

/** The revisions of a rollout in progress: the update revision and those pods may still be on. */
export interface Rollout { update: ControllerRevision; old: ControllerRevision[] }

export interface PreDownloadTarget<T extends KObject = KObject> {
  resource: ResourceType;
  /** The rollout under way, 'done' when the revisions agree again, undefined while unknown. */
  rollout(obj: T, owned: ControllerRevision[]): Rollout | 'done' | undefined;
  /** Enough updated pods are ready for the jobs to start. */
  ready(obj: T): boolean;
  /** Why this rollout needs no pre-download (checked once per revision), if it needs none. */
  ignoreReason(obj: T): string | undefined;
  /** Only revisions an in-place update can reach are pre-downloaded (not so for DaemonSets). */
  inPlaceOnly: boolean;
  job(obj: T): { template: PodTemplateSpec; selector: Selector; parallelism: number | string; timeoutSeconds: number };
}

type Selector = NonNullable<CloneSet['spec']>['selector'];

/** Workloads this small update too fast for pre-downloading to pay. */
const minimumReplicas = 3;
const byName = (owned: ControllerRevision[], name: string | undefined) => owned.find((r) => r.metadata.name === name);
const annotationNumber = (obj: KObject, key: string, fallback: number) => Number(obj.metadata.annotations?.[key] ?? fallback) || fallback;
const minReadyFromAnnotation = (obj: KObject, replicas: number) =>
  scaledValue((obj.metadata.annotations?.[ImagePreDownloadMinUpdatedReadyPodsAnnotation] ?? 0) as IntOrPercent, replicas, true);
const oneBatch = (partition: number, maxUnavailable: number, pods: number) =>
  (partition === 0 && maxUnavailable >= pods ? 'all pods update in one batch' : undefined);

function twoRevisions(owned: ControllerRevision[], current?: string, update?: string): Rollout | 'done' | undefined {
  if (!current || !update) return undefined;
  if (current === update) return 'done';
  const [c, u] = [byName(owned, current), byName(owned, update)];
  return c && u ? { update: u, old: [c] } : undefined;
}

export const cloneSetTarget: PreDownloadTarget<CloneSet> = {
  resource: CloneSets, inPlaceOnly: true,
  rollout: (cs, owned) => twoRevisions(owned, cs.status?.currentRevision, cs.status?.updateRevision),
  ready: (cs) => (cs.status?.updatedReadyReplicas ?? 0) >= (cs.spec?.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy?.imagePreDownloadMinUpdatedReadyPods ?? 0),
  ignoreReason(cs) {
    const ru = cs.spec?.updateStrategy?.rollingUpdate;
    if ((ru?.podUpdatePolicy ?? PodUpdatePolicy.ReCreate) === PodUpdatePolicy.ReCreate) return 'update type is ReCreate';
    const replicas = cs.spec?.replicas ?? 1;
    if (replicas <= minimumReplicas) return `replicas ${replicas} not above ${minimumReplicas}`;
    return oneBatch(scaledValue(ru?.partition ?? 0, replicas, true), scaledValue(ru?.maxUnavailable ?? '20%', replicas, false), replicas);
  },
  job(cs) {
    const strategy = cs.spec?.updateStrategy?.rollingUpdate?.inPlaceUpdateStrategy;
    return {
      template: cs.spec!.template as PodTemplateSpec, selector: cs.spec!.selector,
      parallelism: strategy?.imagePreDownloadParallelism ?? 1, timeoutSeconds: strategy?.imagePreDownloadTimeoutSeconds ?? 300,
    };
  },
};

const jobFromAnnotations = (obj: StatefulSet | DaemonSet) => ({
  template: obj.spec!.template as PodTemplateSpec, selector: obj.spec!.selector as Selector,
  parallelism: annotationNumber(obj, ImagePreDownloadParallelismAnnotation, 1), timeoutSeconds: annotationNumber(obj, ImagePreDownloadTimeoutSecondsAnnotation, 300),
});

export const statefulSetTarget: PreDownloadTarget<StatefulSet> = {
  resource: AdvancedStatefulSets, inPlaceOnly: true,
  rollout: (set, owned) => twoRevisions(owned, set.status?.currentRevision, set.status?.updateRevision),
  ready: (set) => (set.status?.updatedReadyReplicas ?? 0) >= minReadyFromAnnotation(set, set.spec?.replicas ?? 1),
  ignoreReason(set) {
    const strategy = set.spec?.updateStrategy;
    const ru = strategy?.rollingUpdate;
    if (strategy?.type === 'OnDelete' || !ru || (ru.podUpdatePolicy ?? PodUpdatePolicy.ReCreate) === PodUpdatePolicy.ReCreate) return 'update type is OnDelete or ReCreate';
    const replicas = set.spec?.replicas ?? 1;
    if (replicas <= minimumReplicas) return `replicas ${replicas} not above ${minimumReplicas}`;
    return oneBatch(ru.partition ?? 0, scaledValue(ru.maxUnavailable ?? 1, replicas, false), replicas);
  },
  job: jobFromAnnotations,
};

/** An Advanced DaemonSet names its update revision by hash; every other owned revision is old. */
export const daemonSetTarget: PreDownloadTarget<DaemonSet> = {
  resource: AdvancedDaemonSets, inPlaceOnly: false,
  rollout(ds, owned) {
    const hash = ds.status?.updateRevision;
    if (!hash) return undefined;
    if ((ds.status?.updatedNumberScheduled ?? 0) >= (ds.status?.desiredNumberScheduled ?? 0)) return 'done';
    const update = owned.find((r) => r.metadata.labels?.[ControllerRevisionHashKey] === hash || r.metadata.name?.endsWith(`-${hash}`));
    return update ? { update, old: owned.filter((r) => r !== update) } : undefined;
  },
  // upstream reads the annotation but does not wait on it (its own TODO); neither do we
  ready: () => true,
  ignoreReason(ds) {
    const pods = ds.status?.desiredNumberScheduled ?? 0;
    const ru = ds.spec?.updateStrategy?.rollingUpdate;
    return oneBatch(scaledValue(ru?.partition ?? 0, pods, true), scaledValue(ru?.maxUnavailable ?? 1, pods, false), pods);
  },
  job: jobFromAnnotations,
};
