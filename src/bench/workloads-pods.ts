/** Pod and workload predicates the scenarios' milestones are made of (objects as the store holds them). */
import type { KObject } from '../api/meta.js';

interface PodShape {
  metadata: KObject['metadata'];
  spec?: { nodeName?: string; containers?: { name: string; image?: string }[] };
  status?: { conditions?: { type: string; status: string }[]; containerStatuses?: { name: string; image?: string; ready?: boolean; restartCount?: number }[] };
}

const shape = (o: KObject) => o as unknown as PodShape;

export const isLive = (p: KObject) => !p.metadata.deletionTimestamp;
export const isScheduled = (p: KObject) => !!shape(p).spec?.nodeName;
/** The pod's condition `type` is True (Ready, or a readiness gate such as KruisePodReady). */
export const conditionTrue = (type: string) => (p: KObject) => (shape(p).status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
export const isReady = conditionTrue('Ready');
export const revisionOf = (p: KObject) => p.metadata.labels?.['controller-revision-hash'];
export const restartsOf = (p: KObject) => (shape(p).status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);

/** The kubelet reports every container ready and running the image the spec asks for (after an in-place update too). */
export const containersOnSpecImage = (p: KObject) => {
  const { spec, status } = shape(p);
  const statuses = status?.containerStatuses ?? [];
  return (spec?.containers ?? []).every((c) => statuses.some((s) => s.name === c.name && s.ready === true && (s.image === c.image || !!s.image?.endsWith(`/${c.image}`))));
};

/** Pods whose revision label is none of `old` (moved to the new revision, in place or recreated). */
export const updatedFrom = (old: Set<string | undefined>) => (p: KObject) => !old.has(revisionOf(p));

interface WorkloadStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  updatedReplicas?: number;
  updatedReadyReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
}

export const statusOf = (o: KObject) => ((o as { status?: WorkloadStatus }).status ?? {});

/** The workload's status reports the current generation with `n` replicas, all updated and ready. */
export const statusSettled = (n: number) => (o: KObject) => {
  const s = statusOf(o);
  return s.observedGeneration === o.metadata.generation && s.replicas === n && s.readyReplicas === n
    && s.updatedReplicas === n && s.updatedReadyReplicas === n;
};

export const uidsOf = (pods: KObject[]) => new Set(pods.map((p) => p.metadata.uid));
