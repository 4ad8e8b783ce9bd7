/**
 * The simulated CSI driver of `kruise up` and the default StorageClass `standard` it provisions for
 * (docs/design/storage-provisioning.md §2). Created once at start; a user may edit or delete them.
 */
import { CSIDrivers, StorageClasses } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists } from '../../../machinery/errors.js';

export const simulatedDriver = 'csi.kruise.io';
export const defaultClassName = 'standard';
export const defaultClassAnnotation = 'storageclass.kubernetes.io/is-default-class';

export async function ensureStorageDefaults(client: Client): Promise<void> {
  const create = (p: Promise<unknown>) => p.catch((e: unknown) => { if (!isAlreadyExists(e)) throw e; });
  await create(client.create(CSIDrivers, {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: simulatedDriver },
    spec: { attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] },
  }));
  await create(client.create(StorageClasses, {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name: defaultClassName, annotations: { [defaultClassAnnotation]: 'true' } },
    provisioner: simulatedDriver, reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true,
  }));
}
