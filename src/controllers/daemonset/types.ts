/**
 * The shapes the Advanced DaemonSet controller works on: the v1beta1 DaemonSet (spec required),
 * and the keys of it and its pods.
 */
import type { DaemonSet as StoredDaemonSet } from '../../api/kruise/workloads/daemonset.js';
import type { OwnerReference } from '../../api/meta.js';

/** apps.kruise.io/v1beta1 DaemonSet (the storage version; v1alpha1 arrives converted). */
export { AdvancedDaemonSets } from '../../api/kruise/resource-types.js';

export type DaemonSet = StoredDaemonSet & { spec: NonNullable<StoredDaemonSet['spec']> };
export type DaemonSetStatus = NonNullable<StoredDaemonSet['status']>;


export function daemonSetOwnerRef(ds: DaemonSet): OwnerReference {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', name: ds.metadata.name!, uid: ds.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

