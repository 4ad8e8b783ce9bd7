/**
 * One volume's step (docs/design/storage-provisioning.md §3, §7): the PV controller's phases (a new
 * volume without a claim becomes Available; a volume whose claim is gone becomes Released and, with
 * reclaim policy Delete and provisioned by the simulated driver, is deleted), and the attach/detach
 * controller with the CSI external-attacher: one attached VolumeAttachment per node that runs a pod
 * using the volume's claim, removed when no pod there uses it any more.
 */
import { createHash } from 'node:crypto';
import { PersistentVolumes, VolumeAttachments } from '../../../api/resource-type.js';
import type { KObject } from '../../../api/meta.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists, isNotFound } from '../../../machinery/errors.js';
import type { Request } from '../../../runtime/handlers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { Result } from '../../../runtime/reconcile.js';
import { simulatedDriver } from './defaults.js';
import { provisionedByAnnotation } from './provision.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../../api/core/index.js';

export interface VolumeDeps {
  claims: Informer<PersistentVolumeClaim>;
  volumes: Informer<PersistentVolume>;
  podsUsing(namespace: string, claim: string): Pod[];
  attachments: Informer<KObject>;
  client: Client;
}

/** kube's attachment name: `csi-` and the sha256 of volume, driver and node. */
export function attachmentName(pv: string, node: string): string {
  return `csi-${createHash('sha256').update(`${pv}${simulatedDriver}${node}`).digest('hex')}`;
}

const ignoreGone = (e: unknown) => { if (!isNotFound(e) && !isAlreadyExists(e)) throw e; };

export class VolumeReconciler {
  constructor(private readonly d: VolumeDeps) {}

  async reconcile(_ctx: unknown, req: Request): Promise<Result> {
    const pv = this.d.volumes.get(undefined, req.name);
    await this.syncAttachments(req.name, pv).catch(ignoreGone);
    if (!pv || pv.metadata.deletionTimestamp) return {};
    await this.syncPhase(pv).catch(ignoreGone);
    return {};
  }

  private async syncPhase(pv: PersistentVolume): Promise<void> {
    const ref = pv.spec?.claimRef;
    const setPhase = (phase: string) => this.d.client.patch(PersistentVolumes, undefined, pv.metadata.name!, 'merge', { status: { phase } }, { subresource: 'status' });
    if (!ref) {
      if (pv.status?.phase !== 'Available') await setPhase('Available');
      return;
    }
    const claim = this.d.claims.get(ref.namespace, ref.name ?? '');
    if (claim && (!ref.uid || claim.metadata.uid === ref.uid)) return; // binding is the claim reconciler's
    if (!ref.uid) return; // pre-bound to a claim not yet created
    if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') return void await setPhase('Released');
    if (pv.spec?.persistentVolumeReclaimPolicy === 'Delete' && pv.metadata.annotations?.[provisionedByAnnotation] === simulatedDriver) {
      await this.d.client.delete(PersistentVolumes, undefined, pv.metadata.name!, { preconditions: { uid: pv.metadata.uid } });
    }
  }

  /** Nodes with a pod (not finished) that uses the volume's bound claim. */
  private wantedNodes(pv: PersistentVolume | undefined): Set<string> {
    const ref = pv?.spec?.claimRef;
    if (!pv || pv.metadata.deletionTimestamp || pv.spec?.csi?.driver !== simulatedDriver || !ref || pv.status?.phase !== 'Bound') return new Set();
    return new Set(this.d.podsUsing(ref.namespace ?? '', ref.name ?? '')
      .filter((p) => p.spec.nodeName && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
      .map((p) => p.spec.nodeName!));
  }

  private async syncAttachments(name: string, pv: PersistentVolume | undefined): Promise<void> {
    const wanted = this.wantedNodes(pv);
    const existing = this.d.attachments.list().filter((va) => (va.spec as { source?: { persistentVolumeName?: string } }).source?.persistentVolumeName === name);
    for (const va of existing) {
      const node = (va.spec as { nodeName?: string }).nodeName ?? '';
      if (!wanted.delete(node)) await this.d.client.delete(VolumeAttachments, undefined, va.metadata.name!).catch(ignoreGone);
      else if ((va.status as { attached?: boolean } | undefined)?.attached !== true) await this.attach(va.metadata.name!);
    }
    for (const node of wanted) {
      const va = { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: attachmentName(name, node) },
        spec: { attacher: simulatedDriver, nodeName: node, source: { persistentVolumeName: name } } };
      await this.d.client.create(VolumeAttachments, va).catch(ignoreGone);
      await this.attach(va.metadata.name);
    }
  }

  private attach(name: string): Promise<unknown> {
    return this.d.client.patch(VolumeAttachments, undefined, name, 'merge', { status: { attached: true } }, { subresource: 'status' });
  }
}
