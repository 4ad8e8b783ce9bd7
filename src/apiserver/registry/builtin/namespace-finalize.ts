/**
 * namespaces/finalize: the only write of spec.finalizers. The namespace controller releases the
 * `kubernetes` finalizer through it; an emptied, terminating namespace then goes away.
 */
import type { KObject } from '../../../api/meta.js';
import { StoreError } from '../../storage/store.js';
import { storeErrorToStatus } from '../core.js';
import type { SubresourceStorage, SubresourceTarget } from '../subresource.js';
import { loadCurrent } from '../update.js';

export const namespaceFinalizeSubresource: SubresourceStorage = {
  async update(target, body) {
    return { object: await finalizeNamespace(target, body) };
  },
};

async function finalizeNamespace({ core, resource: namespaces, name }: SubresourceTarget, body: KObject): Promise<KObject> {
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, namespaces, undefined, name);
    const ns = structuredClone(current.object);
    const finalizers = ((body.spec as { finalizers?: string[] } | undefined)?.finalizers) ?? [];
    ns.spec = { ...(ns.spec as object), finalizers };
    try {
      const updated = await core.store.update(current.key, ns, current.rv);
      if (finalizers.length === 0 && ns.metadata.deletionTimestamp && (ns.metadata.finalizers ?? []).length === 0) {
        return (await core.store.delete(current.key, updated.rv)).object;
      }
      return updated.object;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, namespaces, name);
    }
  }
}
