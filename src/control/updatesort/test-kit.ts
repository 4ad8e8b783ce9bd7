/** Pod builders for the ordering tests. */
import type { SortablePod } from './pod-facts.js';

export interface PodFacts {
  node?: string;
  phase?: string;
  ready?: boolean;
  readyAt?: string;
  restarts?: number;
  created?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A scheduled, Running, Ready pod unless told otherwise. */
export function pod(name: string, facts: PodFacts = {}): SortablePod {
  const ready = facts.ready ?? true;
  return {
    metadata: {
      name, labels: facts.labels ?? {}, annotations: facts.annotations ?? {},
      creationTimestamp: facts.created ?? '2024-01-01T00:00:00Z',
    },
    spec: { nodeName: facts.node ?? 'node-1' },
    status: {
      phase: facts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: facts.readyAt ?? '2024-01-01T00:01:00Z' }],
      containerStatuses: [{ restartCount: facts.restarts ?? 0 }],
    },
  };
}

export const names = (pods: readonly SortablePod[]): string[] => pods.map((p) => p.metadata.name ?? '');
