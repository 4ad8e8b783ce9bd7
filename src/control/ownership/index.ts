/**
 * Controller references and ControllerRefManager-style claiming: a controller owns the children its
 * selector matches; it adopts matching orphans (after re-reading itself from the API server, so a
 * controller deleted meanwhile never adopts) and releases owned children whose labels stopped
 * matching. Adoption and release are strategic-merge patches of ownerReferences keyed by uid, as
 * upstream sends them, so they suit built-in kinds.
 */
import type { KObject, OwnerReference } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import type { LabelSelector } from '../../machinery/labels.js';
import { controllerRef } from '../../runtime/indexers.js';

export { controllerRef };

export function newControllerRef(owner: KObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export interface ClaimOptions {
  client: Client;
  /** The children's resource type. */
  type: ResourceType;
  owner: KObject;
  ownerApiVersion: string;
  ownerKind: string;
  selector: LabelSelector;
  /** Throws if the owner may not adopt now: typically a fresh GET checking uid and deletionTimestamp. */
  canAdopt: () => Promise<void>;
}

/** The candidates this owner controls after adopting and releasing; throws once done if any write failed. */
export async function claimObjects<T extends KObject>(candidates: readonly T[], o: ClaimOptions): Promise<T[]> {
  const claimed: T[] = [];
  const errors: unknown[] = [];
  let adoptable: Promise<void> | undefined;
  const ownerUid = o.owner.metadata.uid;
  const ownerDeleting = Boolean(o.owner.metadata.deletionTimestamp);
  for (const obj of candidates) {
    const ref = controllerRef(obj);
    const matches = o.selector.matches(obj.metadata.labels);
    try {
      if (ref) {
        if (ref.uid !== ownerUid) continue;
        if (matches) claimed.push(obj);
        else if (!ownerDeleting) await release(o, obj);
        continue;
      }
      if (ownerDeleting || !matches || obj.metadata.deletionTimestamp) continue;
      adoptable ??= o.canAdopt();
      await adoptable;
      const adopted = await adopt(o, obj);
      if (adopted) claimed.push(adopted);
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length > 0) throw errors[0];
  return claimed;
}

async function adopt<T extends KObject>(o: ClaimOptions, obj: T): Promise<T | undefined> {
  const ref = newControllerRef(o.owner, o.ownerApiVersion, o.ownerKind);
  const patch = { metadata: { ownerReferences: [ref], uid: obj.metadata.uid } };
  try {
    return await o.client.patch<T>(o.type, obj.metadata.namespace, obj.metadata.name!, 'strategic', patch);
  } catch (e) {
    if (isNotFound(e)) return undefined; // gone: nothing to adopt
    throw e;
  }
}

async function release(o: ClaimOptions, obj: KObject): Promise<void> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: o.owner.metadata.uid }], uid: obj.metadata.uid } };
  try {
    await o.client.patch(o.type, obj.metadata.namespace, obj.metadata.name!, 'strategic', patch);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/** canAdopt for namespaced owners: re-read `type`/`name`; refuse if it is gone, replaced or being deleted. */
export function recheckOwner(client: Client, type: ResourceType, owner: KObject): () => Promise<void> {
  return async () => {
    const fresh = await client.get(type, owner.metadata.namespace, owner.metadata.name!);
    if (fresh.metadata.uid !== owner.metadata.uid) {
      throw new Error(`original ${type.kind} ${owner.metadata.namespace}/${owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`);
    }
    if (fresh.metadata.deletionTimestamp) {
      throw new Error(`${owner.metadata.namespace}/${owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    }
  };
}
