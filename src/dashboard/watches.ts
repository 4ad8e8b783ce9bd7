/**
 * The dashboard's watches: one shared informer per kind it shows (list once, then watch), each
 * event cut to its row and handed to the state (docs/design/dashboard.md §3). Kinds the cluster does
 * not serve (no Kruise CRDs) just retry with the informer's backoff and stay empty.
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import { DaemonSets, Deployments, Events, Jobs, Namespaces, Nodes, Pods, StatefulSets } from '../api/resource-type.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, BroadcastJobs, CloneSets, SidecarSets } from '../api/kruise/resource-types.js';
import type { Client } from '../client/client.js';
import { SharedInformerFactory } from '../runtime/informer-factory.js';
import { logger } from '../machinery/log.js';
import type { DashboardState } from './state.js';
import { eventRow, jobRow, nodeRow, podRow, sidecarSetRow, workloadRow, type Family } from './summaries.js';

interface Watched { type: ResourceType; family: Family; row: (obj: KObject) => object }

const namespaceRow = (obj: KObject) => ({ name: obj.metadata.name ?? '', phase: (obj as { status?: { phase?: string } }).status?.phase ?? 'Active' });

export const watchedKinds: Watched[] = [
  { type: Namespaces, family: 'namespaces', row: namespaceRow },
  { type: Nodes, family: 'nodes', row: nodeRow },
  { type: Pods, family: 'pods', row: podRow },
  { type: Events, family: 'events', row: eventRow },
  ...[CloneSets, AdvancedStatefulSets, AdvancedDaemonSets, Deployments, StatefulSets, DaemonSets].map((type) => ({ type, family: 'workloads' as const, row: workloadRow })),
  { type: SidecarSets, family: 'sidecarsets', row: sidecarSetRow },
  ...[Jobs, BroadcastJobs].map((type) => ({ type, family: 'jobs' as const, row: jobRow })),
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
  factory.start();
  return { waitForSync: (signal) => factory.waitForSync(signal), stop: () => factory.stop() };
}
