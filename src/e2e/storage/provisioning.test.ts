/**
 * The simulated storage of the embedded cluster (docs/design/storage-provisioning.md §7): a claim
 * of the default class `standard` (WaitForFirstConsumer) binds once a pod using it is scheduled,
 * on a volume with node affinity to the pod's node; a claim of an `Immediate` class binds at once;
 * the PV looks as kube-controller-manager and the CSI provisioner write it; expansion runs through
 * the resizer's and kubelet's steps; a class without expansion is refused; reclaim Delete removes
 * the volume and its attachment.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CSINodes, PersistentVolumeClaims, PersistentVolumes, Pods, StorageClasses, VolumeAttachments } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import { isNotFound, StatusError } from '../../machinery/errors.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/core/index.js';

const ns = 'default';
const claim = (name: string, storageClassName?: string): PersistentVolumeClaim => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: ns },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(storageClassName ? { storageClassName } : {}) },
});
const podUsing = (name: string, claimName: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns },
  spec: { containers: [{ name: 'app', image: 'nginx:1.25-alpine' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

describe('storage provisioning', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startWorkloadEnv({ nodes: 2, controllers: () => undefined }); });
  after(() => w.stop());

  const getClaim = (name: string) => w.client.get<PersistentVolumeClaim>(PersistentVolumeClaims, ns, name);
  const bound = (name: string) => eventually(`${name} bound`, async () => {
    const c = await getClaim(name);
    return c.status?.phase === 'Bound' ? c : undefined;
  });

  test('the default class, the driver and one CSINode per node exist', async () => {
    const sc = await w.client.get<KObject & Record<string, unknown>>(StorageClasses, undefined, 'standard');
    assert.deepEqual([sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'], sc.provisioner, sc.volumeBindingMode, sc.reclaimPolicy, sc.allowVolumeExpansion],
      ['true', 'csi.kruise.io', 'WaitForFirstConsumer', 'Delete', true]);
    const nodes = await eventually('CSINodes', async () => {
      const list = (await w.client.list<KObject & { spec: { drivers: { name: string; nodeID: string }[] } }>(CSINodes)).items;
      return list.length === 2 ? list : undefined;
    });
    assert.deepEqual(nodes.map((n) => n.spec.drivers.map((d) => [d.name, d.nodeID === n.metadata.name])), [[['csi.kruise.io', true]], [['csi.kruise.io', true]]]);
  });

  test('WaitForFirstConsumer: pending until a pod is scheduled, then bound on that node', async () => {
    const created = await w.client.create(PersistentVolumeClaims, claim('wffc'));
    assert.equal(created.spec?.storageClassName, 'standard', 'DefaultStorageClass admission');
    await eventually('provisioner annotations', async () => (await getClaim('wffc')).metadata.annotations?.['volume.kubernetes.io/storage-provisioner'] === 'csi.kruise.io' || undefined);
    assert.equal((await getClaim('wffc')).status?.phase, 'Pending');
    await w.client.create(Pods, podUsing('consumer', 'wffc'));
    const c = await bound('wffc');
    const pod = await eventually('pod scheduled', async () => {
      const p = await w.client.get<Pod>(Pods, ns, 'consumer');
      return p.spec.nodeName ? p : undefined;
    });
    const node = pod.spec.nodeName!;
    assert.equal(c.metadata.annotations?.['volume.kubernetes.io/selected-node'], node);
    assert.equal(c.metadata.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
    assert.equal(c.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    assert.deepEqual(c.status, { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    const pv = await w.client.get<PersistentVolume>(PersistentVolumes, undefined, c.spec!.volumeName!);
    assert.equal(pv.metadata.name, `pvc-${c.metadata.uid}`);
    assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/provisioned-by'], 'csi.kruise.io');
    assert.deepEqual(pv.spec?.claimRef && [pv.spec.claimRef.kind, pv.spec.claimRef.namespace, pv.spec.claimRef.name, pv.spec.claimRef.uid], ['PersistentVolumeClaim', ns, 'wffc', c.metadata.uid]);
    assert.deepEqual([pv.spec?.persistentVolumeReclaimPolicy, pv.spec?.storageClassName, pv.spec?.capacity?.storage, pv.spec?.csi?.driver, pv.status?.phase],
      ['Delete', 'standard', '1Gi', 'csi.kruise.io', 'Bound']);
    assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms, [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }]);
    const va = await eventually('attached', async () => {
      const list = (await w.client.list<KObject & { spec: Record<string, any>; status?: { attached?: boolean } }>(VolumeAttachments)).items;
      return list.find((a) => a.spec.source?.persistentVolumeName === pv.metadata.name && a.status?.attached);
    });
    assert.deepEqual([va.spec.attacher, va.spec.nodeName], ['csi.kruise.io', node]);
  });

  test('expansion: Resizing, then FileSystemResizePending, then the new capacity once the pod runs', async () => {
    await eventually('consumer running', async () => (await w.client.get<Pod>(Pods, ns, 'consumer')).status?.phase === 'Running' || undefined);
    await w.client.patch(PersistentVolumeClaims, ns, 'wffc', 'merge', { spec: { resources: { requests: { storage: '2Gi' } } } });
    const c = await eventually('capacity 2Gi', async () => {
      const x = await getClaim('wffc');
      return x.status?.capacity?.storage === '2Gi' ? x : undefined;
    });
    assert.deepEqual(c.status?.conditions ?? [], []);
    assert.deepEqual(c.status?.allocatedResources, { storage: '2Gi' });
    assert.equal((await w.client.get<PersistentVolume>(PersistentVolumes, undefined, c.spec!.volumeName!)).spec?.capacity?.storage, '2Gi');
    const events = (await w.client.list<KObject & { reason: string; message: string }>({ group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true }, { namespace: ns, fieldSelector: 'involvedObject.name=wffc' })).items;
    const reasons = events.map((e) => e.reason);
    for (const r of ['Provisioning', 'ProvisioningSucceeded', 'Resizing', 'FileSystemResizeRequired']) assert.ok(reasons.includes(r), `${r} in ${reasons.join(',')}`);
  });

  test('Immediate binds without a consumer; a class without allowVolumeExpansion refuses growth', async () => {
    await w.client.create(StorageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fixed' }, provisioner: 'csi.kruise.io', volumeBindingMode: 'Immediate' });
    await w.client.create(PersistentVolumeClaims, claim('now', 'fixed'));
    const c = await bound('now');
    const pv = await w.client.get<PersistentVolume>(PersistentVolumes, undefined, c.spec!.volumeName!);
    assert.equal(pv.spec?.nodeAffinity, undefined, 'no node was selected');
    try {
      await w.client.patch(PersistentVolumeClaims, ns, 'now', 'merge', { spec: { resources: { requests: { storage: '2Gi' } } } });
      assert.fail('growth accepted');
    } catch (e) {
      assert.ok(e instanceof StatusError && e.code === 403, String(e));
      assert.equal(e.message, 'persistentvolumeclaims "now" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  });

  test('reclaim Delete: deleting the claim deletes its volume and attachment', async () => {
    const volume = (await getClaim('wffc')).spec!.volumeName!;
    await w.client.delete(Pods, ns, 'consumer', { gracePeriodSeconds: 0 });
    await w.client.delete(PersistentVolumeClaims, ns, 'wffc');
    await eventually('volume gone', async () => w.client.get(PersistentVolumes, undefined, volume).then(() => undefined, (e: unknown) => isNotFound(e) || undefined));
    const left = (await w.client.list<KObject & { spec: Record<string, any> }>(VolumeAttachments)).items.filter((a) => a.spec.source?.persistentVolumeName === volume);
    assert.deepEqual(left, []);
  });
});
