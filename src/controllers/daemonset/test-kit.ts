/** Builders for the pure-logic tests: DaemonSets, nodes and daemon pods as the cache holds them. */
import type { PodPhase, Taint, Node, Pod } from '../../api/core/index.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { buildClusterView, type ClusterView } from './node-view.js';
import type { DaemonSet } from './types.js';

export const T0 = Date.parse('2024-01-01T00:00:00Z');
export const at = (secondsAfterT0: number): string => new Date(T0 + secondsAfterT0 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function daemonSet(spec: Partial<DaemonSet['spec']> = {}, status: Partial<NonNullable<DaemonSet['status']>> = {}): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'ds', namespace: 'ns', uid: 'ds-uid', generation: 2 },
    spec: {
      selector: { matchLabels: { app: 'ds' } },
      template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'img' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } },
      ...spec,
    } as DaemonSet['spec'],
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 4, numberReady: 0, updatedNumberScheduled: 0, ...status },
  };
}

export function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints } };
}

export interface PodOptions {
  hash?: string;
  ready?: boolean;
  /** Seconds after T0 the pod turned Ready. */
  readySince?: number;
  created?: number;
  phase?: PodPhase;
  deleting?: boolean;
  bound?: boolean;
  labels?: Record<string, string>;
}

let counter = 0;
export function pod(nodeName: string, o: PodOptions = {}): Pod {
  const name = `ds-${nodeName}-${counter++}`;
  const ready = o.ready ?? true;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: 'ns', uid: `uid-${name}`, creationTimestamp: at(o.created ?? 0),
      labels: { app: 'ds', [ControllerRevisionHashLabel]: o.hash ?? 'new', ...o.labels },
      ...(o.deleting ? { deletionTimestamp: at(100) } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'img' }],
      ...(o.bound === false ? {} : { nodeName }),
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] } } },
    },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at(o.readySince ?? 0) }],
    },
  };
}

export const fourNodes = (): Node[] => ['node-a', 'node-b', 'node-c', 'node-d'].map((n) => node(n));

export const view = (ds: DaemonSet, nodes: Node[], pods: Pod[]): ClusterView => buildClusterView(ds, nodes, pods);
export const names = (pods: Pod[]): string[] => pods.map((p) => p.spec.nodeName ?? '?').sort();
