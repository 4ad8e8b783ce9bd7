/**
 * Advanced StatefulSet volume expansion on the simulated storage (docs/design/storage-provisioning.md §6,
 * docs/design/advanced-statefulset.md §10): with StatefulSetAutoResizePVCGate and
 * `volumeClaimUpdateStrategy: OnPodRollingUpdate`, a larger claim template grows every claim the
 * rolling update reaches; the resizer and the kubelet then bring each claim's status capacity and
 * its volume to the new size, and the claims carry no resize condition at the end — what
 * OpenKruise's volume-expansion specs wait for. A class without `allowVolumeExpansion` is refused
 * by the webhook.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PersistentVolumeClaims, PersistentVolumes, StorageClasses } from '../../api/resource-type.js';
import { StatusError } from '../../machinery/errors.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/core/index.js';
import { AdvancedStatefulSets, eventually, getSet, ns, patchSpec, settled, startStatefulSetEnv, sts } from '../statefulset/fixtures.js';

const template = (storage: string, storageClassName?: string) => ({
  metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...(storageClassName ? { storageClassName } : {}) },
});

describe('Advanced StatefulSet volume expansion on the default class', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv({ gates: 'StatefulSetAutoResizePVCGate=true' }); });
  after(() => w.stop());

  const claims = async (app: string) => (await w.client.list<PersistentVolumeClaim>(PersistentVolumeClaims, { namespace: ns, labelSelector: `app=${app}` })).items;

  test('a larger template resizes every claim: spec, volume, status capacity, no conditions left', async () => {
    await w.client.create(AdvancedStatefulSets, sts('grow', { replicas: 2, volumeClaimTemplates: [template('1Gi')], volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } }));
    const first = await settled(w.client, 'grow', 2);
    const before = await claims('grow');
    assert.deepEqual(before.map((c) => [c.metadata.name, c.spec?.storageClassName, c.status?.phase, c.status?.capacity?.storage]),
      [['data-grow-0', 'standard', 'Bound', '1Gi'], ['data-grow-1', 'standard', 'Bound', '1Gi']]);
    const templates = structuredClone(first.spec!.volumeClaimTemplates!) as ReturnType<typeof template>[];
    templates[0]!.spec.resources.requests.storage = '3Gi';
    await patchSpec(w.client, 'grow', { volumeClaimTemplates: templates });
    const grown = await eventually('claims report 3Gi', async () => {
      const list = await claims('grow');
      return list.length === 2 && list.every((c) => c.status?.capacity?.storage === '3Gi') ? list : undefined;
    }, 60_000);
    for (const c of grown) {
      assert.equal(c.spec?.resources?.requests?.storage, '3Gi');
      assert.deepEqual(c.status?.conditions ?? [], [], `${c.metadata.name} has no resize condition left`);
      assert.equal(c.metadata.annotations?.['apps.kruise.io/owned-by-asts'], 'true');
      const pv = await w.client.get<PersistentVolume>(PersistentVolumes, undefined, c.spec!.volumeName!);
      assert.equal(pv.spec?.capacity?.storage, '3Gi');
    }
    const set = await eventually('status counts the expanded claims', async () => {
      const s = await getSet(w.client, 'grow');
      return s.status?.volumeClaims?.[0]?.compatibleReadyReplicas === 2 ? s : undefined;
    }, 60_000);
    assert.deepEqual(set.status?.volumeClaims, [{ volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 2 }]);
  });

  test('a class without allowVolumeExpansion: the webhook refuses the larger template', async () => {
    await w.client.create(StorageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'rigid' }, provisioner: 'csi.kruise.io', allowVolumeExpansion: false });
    await w.client.create(AdvancedStatefulSets, sts('stay', { replicas: 1, volumeClaimTemplates: [template('1Gi', 'rigid')], volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } }));
    const first = await settled(w.client, 'stay', 1);
    const templates = structuredClone(first.spec!.volumeClaimTemplates!) as ReturnType<typeof template>[];
    templates[0]!.spec.resources.requests.storage = '2Gi';
    try {
      await patchSpec(w.client, 'stay', { volumeClaimTemplates: templates });
      assert.fail('accepted');
    } catch (e) {
      assert.ok(e instanceof StatusError && e.code === 422, String(e));
      assert.match(e.message, /storage class rigid does not support volume expansion/);
    }
  });
});
