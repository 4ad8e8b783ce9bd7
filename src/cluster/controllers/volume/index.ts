/**
 * The simulated storage stack of the embedded cluster (docs/design/storage-provisioning.md): the
 * claim controller (PV controller binding, external-provisioner, external-resizer, the kubelet's
 * file system resize), the volume controller (phases, reclaim, attach/detach) and one CSINode per
 * node registering the simulated driver.
 */
import { CSINodes, Nodes, PersistentVolumeClaims, PersistentVolumes, Pods, StorageClasses, VolumeAttachments } from '../../../api/resource-type.js';
import type { KObject } from '../../../api/meta.js';
import { isAlreadyExists } from '../../../machinery/errors.js';
import type { Manager } from '../../../runtime/manager.js';
import { ClaimReconciler } from './claims.js';
import { simulatedDriver } from './defaults.js';
import { VolumeReconciler } from './volumes.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../../api/core/index.js';

export { ensureStorageDefaults, simulatedDriver, defaultClassName } from './defaults.js';
export { fsResizePendingMessage } from './expand.js';

const claimsIndex = 'volume:claims';
const claimKeys = (pod: Pod): string[] => (pod.spec.volumes ?? []).flatMap((v) => {
  if (v.persistentVolumeClaim?.claimName) return [`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName}`];
  return v.ephemeral ? [`${pod.metadata.namespace}/${pod.metadata.name}-${v.name}`] : [];
});
const asRequests = (keys: string[]) => keys.map((k) => ({ namespace: k.slice(0, k.indexOf('/')), name: k.slice(k.indexOf('/') + 1) }));

export function setupVolumeControllers(mgr: Manager): void {
  mgr.controllerFor<{ claims: PersistentVolumeClaim; volumes: PersistentVolume; classes: StorageClass; pods: Pod }>('persistentvolume-binder', { workers: 2 })
    .for('claims', PersistentVolumeClaims)
    .watches('volumes', PersistentVolumes, () => (pv) => {
      const ref = pv.spec?.claimRef;
      return ref?.name ? [{ namespace: ref.namespace, name: ref.name }] : [];
    })
    .watches('classes', StorageClasses, ({ informers }) => (sc) => informers.claims.list()
      .filter((c) => !c.spec?.volumeName && c.spec?.storageClassName === sc.metadata.name)
      .map((c) => ({ namespace: c.metadata.namespace, name: c.metadata.name! })))
    .watches('pods', Pods, () => (pod) => asRequests(claimKeys(pod)))
    .withIndex('pods', claimsIndex, claimKeys)
    .complete(({ informers, client, clock, events }) => new ClaimReconciler({
      ...informers, client, clock, events, podsUsing: (ns, claim) => informers.pods.byIndex(claimsIndex, `${ns}/${claim}`),
    }));

  mgr.controllerFor<{ volumes: PersistentVolume; claims: PersistentVolumeClaim; pods: Pod; attachments: KObject }>('persistentvolume-lifecycle', { workers: 2 })
    .for('volumes', PersistentVolumes)
    .watches('claims', PersistentVolumeClaims, ({ informers }) => (claim) => {
      const bound = informers.volumes.list().filter((pv) => pv.spec?.claimRef?.uid === claim.metadata.uid).map((pv) => pv.metadata.name!);
      return [...new Set([...bound, ...(claim.spec?.volumeName ? [claim.spec.volumeName] : [])])].map((name) => ({ name }));
    })
    .watches('pods', Pods, ({ informers }) => (pod) => asRequests(claimKeys(pod))
      .map((r) => informers.claims.get(r.namespace, r.name)?.spec?.volumeName)
      .filter((v): v is string => !!v).map((name) => ({ name })))
    .withIndex('pods', claimsIndex, claimKeys)
    .watches('attachments', VolumeAttachments, () => (va) => {
      const pv = (va.spec as { source?: { persistentVolumeName?: string } } | undefined)?.source?.persistentVolumeName;
      return pv ? [{ name: pv }] : [];
    })
    .complete(({ informers, client }) => new VolumeReconciler({
      ...informers, client, podsUsing: (ns, claim) => informers.pods.byIndex(claimsIndex, `${ns}/${claim}`),
    }));

  // the kubelet registers each node's CSI drivers in a CSINode owned by the Node
  mgr.controllerFor<{ nodes: Node }>('csinode', { workers: 1 })
    .for('nodes', Nodes)
    .complete(({ informers, client }) => ({
      async reconcile(_ctx: unknown, req: { name: string }) {
        const node = informers.nodes.get(undefined, req.name);
        if (!node || node.metadata.deletionTimestamp) return {};
        await client.create(CSINodes, {
          apiVersion: 'storage.k8s.io/v1', kind: 'CSINode',
          metadata: { name: req.name, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: req.name, uid: node.metadata.uid! }] },
          spec: { drivers: [{ name: simulatedDriver, nodeID: req.name, topologyKeys: ['kubernetes.io/hostname'] }] },
        }).catch((e: unknown) => { if (!isAlreadyExists(e)) throw e; });
        return {};
      },
    }));
}
