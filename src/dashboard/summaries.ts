/**
 * What the page draws of each object: a few fields cut from the watched object, so a delta is a
 * small JSON row, not a whole pod (docs/design/dashboard.md §2). Pure, shared shapes with the page.
 */
import type { KObject } from '../api/meta.js';
import { InPlaceUpdateStateAnnotation } from '../api/kruise/workloads/labels.js';

export interface PodRow { ns: string; name: string; uid: string; node: string; phase: string; ready: boolean; restarts: number; owner: string; revision: string; inPlace: boolean; deleting: boolean }
export interface WorkloadRow {
  kind: string; ns: string; name: string; replicas: number; updated: number; ready: number; available: number;
  partition: string; paused: boolean; strategy: string; currentRevision: string; updateRevision: string; observed: boolean;
  /** Deployments: the ReplicaSets owning its pods, and the pod-template-hash of the newest (deployments.ts). */
  podOwners?: string[]; podRevision?: string;
}
export interface SidecarSetRow { name: string; matched: number; updated: number; ready: number; updatedReady: number }
export interface JobRow { kind: string; ns: string; name: string; active: number; succeeded: number; failed: number; desired: number; phase: string }
export interface EventRow { ns: string; uid: string; type: string; reason: string; object: string; message: string; count: number; time: string }
export interface NodeRow { name: string; ready: boolean; zone: string }

/** The row families the page keeps, each keyed by `key()` below. */
export type Family = 'namespaces' | 'nodes' | 'pods' | 'workloads' | 'sidecarsets' | 'jobs' | 'others' | 'events';
export const families: Family[] = ['namespaces', 'nodes', 'pods', 'workloads', 'sidecarsets', 'jobs', 'others', 'events'];
export const namespacedFamilies = new Set<Family>(['pods', 'workloads', 'jobs', 'others', 'events']);

type Any = Record<string, any>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export function rowKey(family: Family, row: Any): string {
  if (family === 'workloads' || family === 'jobs' || family === 'others') return `${row.kind}/${row.ns}/${row.name}`;
  return row.ns ? `${row.ns}/${row.name ?? row.uid}` : String(row.name ?? row.uid);
}

export function podRow(pod: KObject): PodRow {
  const status = (pod as Any).status ?? {};
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
  const statuses: Any[] = status.containerStatuses ?? [];
  const ready = (status.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True');
  const labels = pod.metadata.labels ?? {};
  return {
    ns: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', node: (pod as Any).spec?.nodeName ?? '',
    phase: status.phase ?? 'Pending', ready, restarts: statuses.reduce((n, s) => n + num(s.restartCount), 0),
    owner: owner ? `${owner.kind}/${owner.name}` : '', revision: labels['controller-revision-hash'] ?? labels['pod-template-hash'] ?? '',
    inPlace: Boolean(pod.metadata.annotations?.[InPlaceUpdateStateAnnotation]), deleting: Boolean(pod.metadata.deletionTimestamp),
  };
}

export function workloadRow(obj: KObject): WorkloadRow {
  const spec = (obj as Any).spec ?? {};
  const status = (obj as Any).status ?? {};
  const strategy = spec.updateStrategy ?? spec.strategy ?? {};
  const rolling = strategy.rollingUpdate ?? {};
  const partition = strategy.partition ?? rolling.partition;
  const kruise = obj.apiVersion?.startsWith('apps.kruise.io') ?? false;
  return {
    kind: kruise && obj.kind !== 'CloneSet' ? `Advanced${obj.kind}` : obj.kind ?? '', ns: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '',
    replicas: num(spec.replicas ?? status.desiredNumberScheduled), updated: num(status.updatedReplicas ?? status.updatedNumberScheduled),
    ready: num(status.readyReplicas ?? status.numberReady), available: num(status.availableReplicas ?? status.numberAvailable),
    partition: partition === undefined ? '' : String(partition), paused: Boolean(strategy.paused ?? rolling.paused ?? spec.paused),
    strategy: [strategy.type, rolling.podUpdatePolicy ?? (kruise ? undefined : '')].filter(Boolean).join(' ') || 'RollingUpdate',
    currentRevision: status.currentRevision ?? '', updateRevision: status.updateRevision ?? '',
    observed: num(status.observedGeneration) >= num(obj.metadata.generation),
  };
}

export function sidecarSetRow(obj: KObject): SidecarSetRow {
  const s = (obj as Any).status ?? {};
  return { name: obj.metadata.name ?? '', matched: num(s.matchedPods), updated: num(s.updatedPods), ready: num(s.readyPods), updatedReady: num(s.updatedReadyPods) };
}

export function jobRow(obj: KObject): JobRow {
  const spec = (obj as Any).spec ?? {};
  const s = (obj as Any).status ?? {};
  const done = (s.conditions ?? []).find((c: Any) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  return {
    kind: obj.kind ?? '', ns: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', active: num(s.active), succeeded: num(s.succeeded), failed: num(s.failed),
    desired: num(spec.completions ?? s.desired ?? spec.parallelism), phase: s.phase ?? done?.type ?? (num(s.active) > 0 ? 'Running' : 'Pending'),
  };
}

/**
 * core/v1 and events.k8s.io/v1 views of one event give the same row (same uid, the renamed fields
 * read from either), so the two watches merge into one entry (docs/design/dashboard.md §10).
 */
export function eventRow(obj: KObject): EventRow {
  const e = obj as Any;
  const involved = e.involvedObject ?? e.regarding ?? {};
  return {
    ns: obj.metadata.namespace ?? '', uid: obj.metadata.uid ?? obj.metadata.name ?? '', type: e.type ?? 'Normal', reason: e.reason ?? '',
    object: `${involved.kind ?? ''}/${involved.name ?? ''}`, message: e.message ?? e.note ?? '',
    count: num(e.count) || num(e.deprecatedCount) || num(e.series?.count) || 1,
    time: e.lastTimestamp ?? e.deprecatedLastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.firstTimestamp ?? e.deprecatedFirstTimestamp ?? obj.metadata.creationTimestamp ?? '',
  };
}

export function nodeRow(obj: KObject): NodeRow {
  const conditions: Any[] = (obj as Any).status?.conditions ?? [];
  return {
    name: obj.metadata.name ?? '', ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    zone: obj.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
  };
}
