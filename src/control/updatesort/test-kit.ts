import type { PodPhase, Pod } from '../../api/core/index.js';
/** Pod builders for the ordering tests. */

export interface PodFacts {
  node?: string;
  phase?: PodPhase;
  ready?: boolean;
  readyAt?: string;
  restarts?: number;
  created?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A scheduled, Running, Ready pod unless told otherwise. */
export function pod(name: string, facts: PodFacts = {}): Pod {
  const ready = facts.ready ?? true;
  return {
    metadata: {
      name, labels: facts.labels ?? {}, annotations: facts.annotations ?? {},
      creationTimestamp: facts.created ?? '2024-01-01T00:00:00Z',
    },
    spec: { nodeName: facts.node ?? 'node-1', containers: [] },
    status: {
      phase: facts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: facts.readyAt ?? '2024-01-01T00:01:00Z' }],
      containerStatuses: [{ name: 'c', image: 'img', imageID: '', ready, restartCount: facts.restarts ?? 0 }],
    },
  };
}

export const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata.name ?? '');
