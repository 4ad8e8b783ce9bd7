/** Builders for the ASTS unit tests: a set, pods in given states, revisions. */
import type { PodPhase, ControllerRevision, Pod } from '../../api/core/index.js';
import { gateReader, type GateReader, type StatefulSet } from './types.js';

type Obj = Record<string, unknown>;

export const defaultGates: GateReader = gateReader();
export const withGates = (on: string[]): GateReader => gateReader((g) => on.includes(g));

export function set(spec: Obj = {}, name = 'web'): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet',
    metadata: { name, namespace: 'ns', uid: 'set-uid', generation: 4 },
    spec: {
      replicas: 3, serviceName: 'svc', selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'img:1' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' } },
      ...spec,
    },
  } as StatefulSet;
}

export interface PodOptions {
  revision?: string;
  phase?: PodPhase;
  ready?: boolean;
  terminating?: boolean;
  labels?: Record<string, string>;
  readySince?: string;
}

export function pod(name: string, o: PodOptions = {}): Pod {
  const phase = o.phase ?? 'Running';
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: 'ns', uid: `uid-${name}`, labels: { 'controller-revision-hash': o.revision ?? 'web-old', ...o.labels },
      ...(o.terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'img:1' }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: (o.ready ?? phase === 'Running') ? 'True' : 'False', lastTransitionTime: o.readySince ?? '2024-01-01T00:00:00Z' }],
    },
  };
}

export function revision(name: string, image = 'img:1'): ControllerRevision {
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'ns' }, revision: 1,
    data: { spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] }, $patch: 'replace' } } },
  };
}
