/**
 * The PersistentVolume the CSI external-provisioner creates for a claim (docs/design/storage-provisioning.md §3):
 * named `pvc-<claim uid>`, `pv.kubernetes.io/provisioned-by`, the class's reclaim policy, the claim's
 * request as capacity, a claimRef to the claim, and for `WaitForFirstConsumer` node affinity to the
 * node the scheduler selected.
 */
import { simulatedDriver } from './defaults.js';
import type { PersistentVolume, PersistentVolumeClaim, PersistentVolumeSpec, StorageClass } from '../../../api/core/index.js';

export const selectedNodeAnnotation = 'volume.kubernetes.io/selected-node';
export const provisionedByAnnotation = 'pv.kubernetes.io/provisioned-by';
export const hostnameLabel = 'kubernetes.io/hostname';

export function provisionedVolume(claim: PersistentVolumeClaim, cls: StorageClass, node: string | undefined): PersistentVolume {
  const name = `pvc-${claim.metadata.uid}`;
  const spec: PersistentVolumeSpec = {
    accessModes: claim.spec?.accessModes,
    capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
    claimRef: {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name,
      uid: claim.metadata.uid, resourceVersion: claim.metadata.resourceVersion,
    },
    csi: { driver: simulatedDriver, fsType: 'ext4', volumeHandle: name, volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': `${simulatedDriver}-simulated` } },
    persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
    storageClassName: cls.metadata.name,
    volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
  };
  if (cls.mountOptions?.length) spec.mountOptions = cls.mountOptions;
  if (node) {
    spec.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: hostnameLabel, operator: 'In', values: [node] }] }] } };
  }
  return {
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: { name, annotations: { [provisionedByAnnotation]: simulatedDriver } },
    spec,
  };
}
