/**
 * One claim's step, as kube-controller-manager's PV controller and the CSI external-provisioner
 * and external-resizer write it (docs/design/storage-provisioning.md §3): provision a volume for
 * a claim of a class of the simulated driver (at once for `Immediate`, once the scheduler selected
 * a node for `WaitForFirstConsumer`), bind claim and volume, and expand a bound claim whose request
 * grew. Each call makes at most one write; the write's watch event brings the next step.
 */
import { PersistentVolumeClaims, PersistentVolumes } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { updateLatest } from '../../../client/update-latest.js';
import type { Clock } from '../../../machinery/clock.js';
import { isAlreadyExists, isNotFound } from '../../../machinery/errors.js';
import { compareQuantities } from '../../../machinery/quantity.js';
import type { Request } from '../../../runtime/handlers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { Result } from '../../../runtime/reconcile.js';
import { simulatedDriver } from './defaults.js';
import { expandStep } from './expand.js';
import { provisionedVolume, selectedNodeAnnotation } from './provision.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../../api/core/index.js';

export const provisionerAnnotations = ['volume.beta.kubernetes.io/storage-provisioner', 'volume.kubernetes.io/storage-provisioner'];
export const bindCompletedAnnotation = 'pv.kubernetes.io/bind-completed';
export const boundByControllerAnnotation = 'pv.kubernetes.io/bound-by-controller';

export interface ClaimDeps {
  claims: Informer<PersistentVolumeClaim>;
  volumes: Informer<PersistentVolume>;
  classes: Informer<StorageClass>;
  /** Pods that use a claim (namespace, claim name). */
  podsUsing(namespace: string, claim: string): Pod[];
  client: Client;
  clock: Clock;
  events: EventRecorder;
}

const storageOf = (list: Record<string, string> | undefined) => list?.storage;

/** The smallest Available volume of the claim's class that holds its request and access modes (static binding). */
function matchingVolume(claim: PersistentVolumeClaim, volumes: PersistentVolume[]): PersistentVolume | undefined {
  const want = storageOf(claim.spec?.resources?.requests) ?? '0';
  const modes = claim.spec?.accessModes ?? [];
  return volumes
    .filter((pv) => pv.status?.phase === 'Available' && !pv.spec?.claimRef && !pv.metadata.deletionTimestamp
      && (pv.spec?.storageClassName ?? '') === (claim.spec?.storageClassName ?? '')
      && modes.every((m) => pv.spec?.accessModes?.includes(m))
      && compareQuantities(storageOf(pv.spec?.capacity) ?? '0', want) >= 0)
    .sort((a, b) => compareQuantities(storageOf(a.spec?.capacity) ?? '0', storageOf(b.spec?.capacity) ?? '0'))[0];
}

export class ClaimReconciler {
  constructor(private readonly d: ClaimDeps) {}

  async reconcile(_ctx: unknown, req: Request): Promise<Result> {
    const claim = this.d.claims.get(req.namespace, req.name);
    if (!claim || claim.metadata.deletionTimestamp) return {};
    // a conflict or a lost race is retried with back-off; a claim or volume gone is news the watch brings
    await this.step(claim).catch((e: unknown) => { if (!isNotFound(e) && !isAlreadyExists(e)) throw e; });
    return {};
  }

  private async step(claim: PersistentVolumeClaim): Promise<void> {
    const volumeName = claim.spec?.volumeName;
    if (volumeName) {
      const pv = this.d.volumes.get(undefined, volumeName);
      if (!pv) return;
      if (claim.status?.phase !== 'Bound') return this.completeBinding(claim, pv);
      return expandStep(this.d, claim, pv);
    }
    const existing = this.d.volumes.list().find((pv) => pv.spec?.claimRef?.uid === claim.metadata.uid);
    if (existing) return this.completeBinding(claim, existing);
    const cls = this.d.classes.get(undefined, claim.spec?.storageClassName ?? '');
    const staticVolume = matchingVolume(claim, this.d.volumes.list());
    if (staticVolume) return this.claimVolume(claim, staticVolume);
    if (!cls || cls.provisioner !== simulatedDriver) return;
    if (!provisionerAnnotations.every((a) => claim.metadata.annotations?.[a] === simulatedDriver)) {
      await this.updateClaim(claim, (c) => { c.metadata.annotations = { ...c.metadata.annotations, ...Object.fromEntries(provisionerAnnotations.map((a) => [a, simulatedDriver])) }; });
      return;
    }
    const node = claim.metadata.annotations?.[selectedNodeAnnotation];
    if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !node) {
      this.d.events.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
      return;
    }
    const key = `${claim.metadata.namespace}/${claim.metadata.name}`;
    this.d.events.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    const pv = await this.d.client.create<PersistentVolume>(PersistentVolumes, provisionedVolume(claim, cls, node));
    this.d.events.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pv.metadata.name}`);
  }

  /** A pre-existing volume: the controller writes its claimRef (and says so in an annotation); a conflict re-runs the step. */
  private async claimVolume(claim: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    const annotations = { ...pv.metadata.annotations, [boundByControllerAnnotation]: 'yes' };
    const claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
    await this.d.client.update(PersistentVolumes, { ...pv, metadata: { ...pv.metadata, annotations }, spec: { ...pv.spec, claimRef } });
  }

  /** Volume phase Bound, then claim volumeName and annotations, then claim status (kube's bind order). */
  private async completeBinding(claim: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    if (pv.status?.phase !== 'Bound') {
      await updateLatest(this.d.client, PersistentVolumes, pv, (v) => { (v.status ??= {}).phase = 'Bound'; }, { status: true });
      return;
    }
    if (claim.spec?.volumeName !== pv.metadata.name || claim.metadata.annotations?.[bindCompletedAnnotation] !== 'yes') {
      await this.updateClaim(claim, (c) => {
        if (c.spec?.volumeName && c.spec.volumeName !== pv.metadata.name) return false; // bound elsewhere meanwhile
        c.metadata.annotations = { ...c.metadata.annotations, [bindCompletedAnnotation]: 'yes', [boundByControllerAnnotation]: 'yes' };
        c.spec = { ...c.spec, volumeName: pv.metadata.name };
      });
      return;
    }
    await updateLatest(this.d.client, PersistentVolumeClaims, claim, (c) => {
      c.status = { ...c.status, phase: 'Bound', accessModes: pv.spec?.accessModes, capacity: pv.spec?.capacity };
    }, { status: true });
  }

  /** kube's PV controller updates claims (its role grants update, not patch), re-reading them on conflicts. */
  private async updateClaim(claim: PersistentVolumeClaim, change: (c: PersistentVolumeClaim) => boolean | void): Promise<void> {
    await updateLatest(this.d.client, PersistentVolumeClaims, claim, change);
  }
}
