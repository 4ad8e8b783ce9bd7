/**
 * The registry facade: every verb on every served resource, independent of HTTP. The admission
 * chain is fixed at construction; it reads through a RegistryReader over the same store, which
 * exists before the Registry, so no setter closes a loop after construction.
 */
import type { KList, KObject } from '../../api/meta.js';
import type { Store } from '../storage/store.js';
import { type Admission, type RequestContext, noAdmission } from './context.js';
import type { RegistryCore } from './core.js';
import type { ResourceTable } from './resource-table.js';
import type { ServedResource } from './served-resource.js';
import { createObject } from './create.js';
import { updateObject } from './update.js';
import { patchObject, type PatchRequest } from './patch.js';
import { deleteObject, type DeleteOptions } from './delete.js';
import { getObject, listObjects, type ListOptions } from './read.js';
import { watchObjects, type WatchDelivery, type WatchOptions, type RegistryWatch } from './watch.js';
import { callSubresource, servesSubresource, type SubresourceAnswer, type SubresourceCall, type SubresourceVerb } from './subresource.js';

export interface RegistryOptions {
  store: Store;
  table: ResourceTable;
  admission?: Admission;
  now?: () => Date;
}

export class Registry {
  private readonly core: RegistryCore;

  constructor(options: RegistryOptions) {
    this.core = { store: options.store, table: options.table, admission: options.admission ?? noAdmission, now: options.now ?? (() => new Date()) };
  }

  get table(): ResourceTable { return this.core.table; }
  /** The registry's clock (creation and deletion timestamps, table ages). */
  now(): Date { return this.core.now(); }

  get(r: ServedResource, ns: string | undefined, name: string): Promise<KObject> { return getObject(this.core, r, ns, name); }
  list(r: ServedResource, ns: string | undefined, o: ListOptions): Promise<KList> { return listObjects(this.core, r, ns, o); }
  /** `end` is called when the watch ends by itself (after delivering an ERROR event). */
  watch(r: ServedResource, ns: string | undefined, o: WatchOptions, deliver: (d: WatchDelivery) => void, end?: () => void): RegistryWatch {
    return watchObjects(this.core, r, ns, o, deliver, end);
  }
  create(r: ServedResource, ns: string | undefined, body: KObject, ctx: RequestContext): Promise<KObject> { return createObject(this.core, r, ns, body, ctx); }
  update(r: ServedResource, ns: string | undefined, name: string, body: KObject, ctx: RequestContext): Promise<KObject> { return updateObject(this.core, r, ns, name, body, ctx); }
  patch(r: ServedResource, ns: string | undefined, name: string, req: PatchRequest, ctx: RequestContext): Promise<KObject> { return patchObject(this.core, r, ns, name, req, ctx); }
  delete(r: ServedResource, ns: string | undefined, name: string, o: DeleteOptions, ctx: RequestContext): Promise<KObject> { return deleteObject(this.core, r, ns, name, o, ctx); }

  /** Whether `r` serves `verb` on `subresource` (so a caller can answer 404 before decoding a body). */
  servesSubresource(r: ServedResource, subresource: string, verb: SubresourceVerb): boolean { return servesSubresource(r, subresource, verb); }
  /** A verb on a subresource, served by the storage `r` declared for it (subresource.ts); 404 when it has none. */
  callSubresource(r: ServedResource, subresource: string, ns: string | undefined, name: string, ctx: RequestContext, call: SubresourceCall): Promise<SubresourceAnswer> {
    return callSubresource({ core: this.core, resource: r, namespace: ns, name, ctx }, subresource, call);
  }

  /**
   * Deletes every matching object (all pages: limit and continue are ignored) and returns them as
   * listed before the deletes, which is kube-apiserver's answer to a DELETE of a collection.
   * Failures of single objects other than NotFound abort.
   */
  async deleteCollection(r: ServedResource, ns: string | undefined, o: ListOptions, del: DeleteOptions, ctx: RequestContext): Promise<KList> {
    const list = await listObjects(this.core, r, ns, { ...o, limit: undefined, continue: undefined });
    for (const item of list.items) {
      try {
        await deleteObject(this.core, r, item.metadata.namespace, item.metadata.name!, del, ctx, 'collection-item');
      } catch (e) {
        if ((e as { code?: number }).code !== 404) throw e;
      }
    }
    return list;
  }
}
