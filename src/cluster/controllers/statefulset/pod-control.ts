/**
 * The StatefulSet's writes (upstream's StatefulPodControl): a pod is created after its missing
 * claims, a condemned pod's claims are handed to it before it is deleted (whenScaled: Delete), and
 * claim owners follow the retention policy. Pod writes go through the scale expectations.
 */
import type { KObject } from '../../../api/meta.js';
import { PersistentVolumeClaims, Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isAlreadyExists, isNotFound } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ScaleExpectations } from '../../../runtime/expectations.js';
import type { Informer } from '../../../runtime/informer.js';
import { claimOwnersUpdate, desiredClaimOwners, newClaim } from './claims.js';
import { claimName } from './identity.js';
import type { Pod, StatefulSet } from '../../../api/core/index.js';
import { createNamedPodExpected } from '../../../control/podcontrol/index.js';

export interface StatefulPodControlOptions {
  client: Client;
  claims: Informer<KObject>;
  events: EventRecorder;
  expectations: ScaleExpectations;
}

export class StatefulPodControl {
  constructor(private readonly o: StatefulPodControlOptions) {}

  async createPod(key: string, set: StatefulSet, pod: Pod, ordinal: number): Promise<void> {
    await this.createMissingClaims(set, pod, ordinal);
    const name = pod.metadata.name!;
    const failed = (e: unknown) => this.o.events.event(set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(e as Error).message}`);
    // AlreadyExists: the cache lags, the pod is there
    if (await createNamedPodExpected({ ...this.o, key }, pod, failed)) {
      this.o.events.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    }
  }

  /** Deletes the pod; a condemned pod first becomes the owner of its claims if the policy says so. */
  async deletePod(key: string, set: StatefulSet, pod: Pod, ordinal: number | undefined, condemned: boolean): Promise<void> {
    if (condemned) await this.updateClaimOwners(set, pod, ordinal, true);
    const name = pod.metadata.name!;
    this.o.expectations.expect(key, 'delete', name);
    try {
      await this.o.client.delete(Pods, pod.metadata.namespace, name, { preconditions: { uid: pod.metadata.uid } });
    } catch (e) {
      this.o.expectations.observe(key, 'delete', name);
      if (isNotFound(e)) return;
      this.o.events.event(set, 'Warning', 'FailedDelete', `delete Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(e as Error).message}`);
      throw e;
    }
    this.o.events.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${name} in StatefulSet ${set.metadata.name} successful`);
  }

  /** Creates the claims of `ordinal` that do not exist yet. */
  async createMissingClaims(set: StatefulSet, pod: Pod, ordinal: number): Promise<void> {
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const name = claimName(template, set, ordinal);
      if (this.o.claims.get(set.metadata.namespace, name)) continue;
      try {
        await this.o.client.create(PersistentVolumeClaims, newClaim(set, template, ordinal, desiredClaimOwners(set, undefined, false)));
      } catch (e) {
        if (isAlreadyExists(e)) continue;
        this.o.events.event(set, 'Warning', 'FailedCreate', `create Claim ${name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${(e as Error).message}`);
        throw e;
      }
      this.o.events.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
    }
  }

  /** Brings the owner references of the pod's claims in line with the retention policy. */
  async updateClaimOwners(set: StatefulSet, pod: Pod, ordinal: number | undefined, condemned: boolean): Promise<void> {
    if (ordinal === undefined) return;
    const desired = desiredClaimOwners(set, pod, condemned);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claim = this.o.claims.get(set.metadata.namespace, claimName(template, set, ordinal));
      if (!claim || claim.metadata.deletionTimestamp) continue;
      const owners = claimOwnersUpdate(claim, set, pod, desired);
      if (!owners) continue;
      try {
        await this.o.client.update(PersistentVolumeClaims, { ...claim, metadata: { ...claim.metadata, ownerReferences: owners } });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
