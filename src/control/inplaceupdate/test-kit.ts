import type { Container, ControllerRevision, Pod, PodTemplateSpec } from '../../api/core/index.js';
/** Builders shared by this folder's tests. */

export function revision(name: string, template: PodTemplateSpec): ControllerRevision {
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1, data: { spec: { template: { ...template, $patch: 'replace' } } } };
}

export function template(containers: Container[], labels: Record<string, string> = { app: 'demo' }, annotations?: Record<string, string>): PodTemplateSpec {
  return { metadata: { labels, ...(annotations && { annotations }) }, spec: { containers } };
}

export function runningPod(containers: Container[], extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', labels: { app: 'demo', 'controller-revision-hash': 'demo-old' }, ...extra },
    spec: { containers: structuredClone(containers), readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'InPlaceUpdateReady', status: 'True' }, { type: 'ContainersReady', status: 'True' }, { type: 'Ready', status: 'True' },
      ],
      containerStatuses: containers.map((c) => ({ name: c.name, image: c.image ?? '', imageID: `id-${c.image}`, ready: true, restartCount: 0 })),
    },
  };
}
