/**
 * The storage.k8s.io CSI kinds and autoscaling HPAs (docs/design/storage-provisioning.md §1,
 * docs/design/autoscaling.md §1): defaults on create, one invalid object, an immutable-field update,
 * and the HPA's v1 view of a v2 object. Cluster-scoped names carry the case's namespace.
 */
import type { DiffCase } from './case-kit.js';
import { outcome } from './normalize.js';

const storage = (plural: string, name = '', ns?: string) =>
  `/apis/storage.k8s.io/v1${ns ? `/namespaces/${ns}` : ''}/${plural}${name ? `/${name}` : ''}`;
const hpas = (version: string, ns: string, name = '') => `/apis/autoscaling/${version}/namespaces/${ns}/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const merge = { 'content-type': 'application/merge-patch+json' };

export const storageAutoscalingCases: DiffCase[] = [
  {
    name: 'csidriver: defaults, invalid values, immutable attachRequired',
    async run(api, { ns }) {
      const name = `${ns}.csi.example.com`;
      const created = await api.request('POST', storage('csidrivers'), { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name }, spec: {} });
      const invalid = await api.request('POST', storage('csidrivers'), { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: `bad.${name}` }, spec: { fsGroupPolicy: 'X', volumeLifecycleModes: ['Foo'] } });
      const changed = await api.request('PATCH', storage('csidrivers', name), JSON.stringify({ spec: { attachRequired: false, podInfoOnMount: true } }), merge);
      const mutable = await api.request('PATCH', storage('csidrivers', name), JSON.stringify({ spec: { podInfoOnMount: true, storageCapacity: true } }), merge);
      await api.request('DELETE', storage('csidrivers', name));
      return { created: outcome(created), invalid: outcome(invalid), changed: outcome(changed), mutable: mutable.status };
    },
  },
  {
    name: 'csinode and volumeattachment: validation and defaults',
    async run(api, { ns }) {
      const node = await api.request('POST', storage('csinodes'), {
        apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: `${ns}-bad` },
        spec: { drivers: [{ name: '', nodeID: '' }, { name: 'a.b', nodeID: 'x', allocatable: { count: -1 } }, { name: 'a.b', nodeID: 'z' }] },
      });
      const va = await api.request('POST', storage('volumeattachments'), {
        apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: `${ns}-va` },
        spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } },
      });
      const badVa = await api.request('POST', storage('volumeattachments'), { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: `${ns}-va2` }, spec: { source: {} } });
      await api.request('DELETE', storage('volumeattachments', `${ns}-va`));
      return { node: outcome(node), va: outcome(va), badVa: outcome(badVa) };
    },
  },
  {
    name: 'csistoragecapacity: create and invalid',
    async run(api, { ns }) {
      const created = await api.request('POST', storage('csistoragecapacities', '', ns), { apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: 'cap' }, storageClassName: 'standard', capacity: '100Gi' });
      const invalid = await api.request('POST', storage('csistoragecapacities', '', ns), { apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: 'bad' }, capacity: '-1Gi' });
      return { created: outcome(created), invalid: outcome(invalid) };
    },
  },
  {
    name: 'hpa: v2 defaults, behavior filled, the v1 view, invalid specs',
    async run(api, { ns }) {
      const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
      const plain = await api.request('POST', hpas('v2', ns), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'plain' }, spec: { scaleTargetRef: ref, maxReplicas: 5 } });
      const rich = await api.request('POST', hpas('v2', ns), {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'rich' },
        spec: {
          scaleTargetRef: ref, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 10 }, scaleUp: {} },
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
        },
      });
      const v1 = await api.request('GET', hpas('v1', ns, 'plain'));
      const invalid = await api.request('POST', hpas('v2', ns), {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad' },
        spec: { scaleTargetRef: { kind: '', name: '' }, minReplicas: 3, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] },
      });
      return { plain: outcome(plain), rich: outcome(rich), v1: outcome(v1), invalid: outcome(invalid) };
    },
  },
  {
    name: 'hpa: created through autoscaling/v1, read as v2',
    async run(api, { ns }) {
      const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
      const fromV1 = await api.request('POST', hpas('v1', ns), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'old' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 70 } });
      const asV2 = await api.request('GET', hpas('v2', ns, 'old'));
      const zero = await api.request('POST', hpas('v1', ns), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'zero' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 0 } });
      return { fromV1: outcome(fromV1), asV2: outcome(asV2), zero: outcome(zero) };
    },
  },
];
