/**
 * The dashboard's watches: one shared informer per kind it shows (list once, then watch), each
 * event cut to its row and handed to the state (docs/design/dashboard.md §3). Kinds the cluster does
 * not serve (no Kruise CRDs) just retry with the informer's backoff and stay empty. Deployments are
 * joined with their ReplicaSets (deployments.ts); events are watched through both APIs and merge by uid.
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import { CronJobs, DaemonSets, Deployments, Events, Jobs, Namespaces, Nodes, Pods, ReplicaSets, StatefulSets } from '../api/resource-type.js';
import {
  AdvancedCronJobs, AdvancedDaemonSets, AdvancedStatefulSets, BroadcastJobs, CloneSets, ImagePullJobs, PodUnavailableBudgets, SidecarSets, UnitedDeployments, WorkloadSpreads,
} from '../api/kruise/resource-types.js';
import type { Client } from '../client/client.js';
import { SharedInformerFactory } from '../runtime/informer-factory.js';
import { logger } from '../machinery/log.js';
import type { DashboardState } from './state.js';
import { eventRow, jobRow, nodeRow, podRow, sidecarSetRow, workloadRow, type Family } from './summaries.js';
import { otherRow } from './other-kinds.js';
import { DeploymentRows } from './deployments.js';

interface Watched { type: ResourceType; family: Family; row: (obj: KObject) => object }

const namespaceRow = (obj: KObject) => ({ name: obj.metadata.name ?? '', phase: (obj as { status?: { phase?: string } }).status?.phase ?? 'Active' });
export const EventsV1: ResourceType = { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

export const watchedKinds: Watched[] = [
  { type: Namespaces, family: 'namespaces', row: namespaceRow },
  { type: Nodes, family: 'nodes', row: nodeRow },
  { type: Pods, family: 'pods', row: podRow },
  ...[Events, EventsV1].map((type) => ({ type, family: 'events' as const, row: eventRow })),
  ...[CloneSets, AdvancedStatefulSets, AdvancedDaemonSets, StatefulSets, DaemonSets].map((type) => ({ type, family: 'workloads' as const, row: workloadRow })),
  { type: SidecarSets, family: 'sidecarsets', row: sidecarSetRow },
  ...[Jobs, BroadcastJobs].map((type) => ({ type, family: 'jobs' as const, row: jobRow })),
  ...[UnitedDeployments, WorkloadSpreads, AdvancedCronJobs, CronJobs, ImagePullJobs, PodUnavailableBudgets].map((type) => ({ type, family: 'others' as const, row: otherRow })),
];

/** Every resource whose rows the page shows, for the per-namespace access check (access.ts). */
export const shownTypes: { family: Family; type: ResourceType }[] = [
  ...watchedKinds.filter((w) => w.type !== EventsV1).map((w) => ({ family: w.family, type: w.type })),
  { family: 'workloads', type: Deployments },
];

export interface DashboardWatches {
  waitForSync(signal?: AbortSignal): Promise<boolean>;
  stop(): void;
}

export function startWatches(client: Client, state: DashboardState): DashboardWatches {
  const factory = new SharedInformerFactory({ client, log: logger('dashboard') });
  for (const w of watchedKinds) {
    factory.informerFor(w.type).addEventHandler({
      onAdd: (obj) => state.upsert(w.family, w.row(obj)),
      onUpdate: (_old, obj) => state.upsert(w.family, w.row(obj)),
      onDelete: (obj) => state.delete(w.family, w.row(obj)),
    });
  }
  const deployments = new DeploymentRows((row) => state.upsert('workloads', row), (row) => state.delete('workloads', row));
  factory.informerFor(Deployments).addEventHandler({
    onAdd: (obj) => deployments.deployment(obj), onUpdate: (_old, obj) => deployments.deployment(obj), onDelete: (obj) => deployments.deploymentDeleted(obj),
  });
  factory.informerFor(ReplicaSets).addEventHandler({
    onAdd: (obj) => deployments.replicaSet(obj), onUpdate: (_old, obj) => deployments.replicaSet(obj), onDelete: (obj) => deployments.replicaSet(obj, true),
  });
  factory.start();
  return { waitForSync: (signal) => factory.waitForSync(signal), stop: () => factory.stop() };
}
