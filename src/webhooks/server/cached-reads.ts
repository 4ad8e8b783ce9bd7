/**
 * Cached reads for the admission handlers: lists and gets of the kinds named here come from one
 * informer each, as upstream's webhooks read through controller-runtime's cache, instead of a list
 * or get over HTTPS per admitted pod (the SidecarSet step lists SidecarSets on every pod create, the
 * PUB steps list or get PUBs on pod creates, updates and deletes; docs/design/webhooks.md §17).
 * A get the cache misses goes to the API server (the object may be newer than the watch), and so do
 * lists with selectors or paging, and everything before the first sync. Callers get copies.
 * Given the manager's informer factory, the reads use its informers (one cache and one watch per kind
 * for controllers and webhooks alike, docs/design/performance.md §4), which it starts and stops;
 * without one they get a factory of their own.
 */
import type { KList, KObject } from '../../api/meta.js';
import { apiVersionOfType, type ResourceType } from '../../api/resource-type.js';
import type { Client, ListOptions } from '../../client/client.js';
import type { Informer } from '../../runtime/informer.js';
import { SharedInformerFactory } from '../../runtime/informer-factory.js';

export interface CachedReads {
  client: Client;
  stop(): void;
}

const typeKey = (t: ResourceType) => `${t.group}/${t.resource}`;

export function cachedReads(client: Client, types: ResourceType[], shared?: SharedInformerFactory): CachedReads {
  const factory = shared ?? new SharedInformerFactory({ client });
  const informers = new Map<string, Informer>(types.map((t) => [typeKey(t), factory.informerFor(t)]));
  if (!shared) factory.start();
  const synced = (type: ResourceType) => {
    const informer = informers.get(typeKey(type));
    return informer?.hasSynced() ? informer : undefined;
  };
  const cached: Client = {
    async get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
      const hit = synced(type)?.get(type.namespaced ? namespace : undefined, name);
      return hit ? structuredClone(hit) as T : client.get<T>(type, namespace, name);
    },
    async list<T extends KObject = KObject>(type: ResourceType, options: ListOptions = {}): Promise<KList<T>> {
      const informer = synced(type);
      const plain = !options.labelSelector && !options.fieldSelector && !options.limit && !options.continue && !options.resourceVersion;
      if (!informer || !plain) return client.list<T>(type, options);
      const items = informer.list().filter((o) => !options.namespace || o.metadata.namespace === options.namespace);
      return { apiVersion: apiVersionOfType(type), kind: `${type.kind}List`, metadata: {}, items: structuredClone(items) as T[] };
    },
    watch: (type, options, callbacks) => client.watch(type, options, callbacks),
    create: (type, obj, options) => client.create(type, obj, options),
    update: (type, obj, options) => client.update(type, obj, options),
    updateStatus: (type, obj, options) => client.updateStatus(type, obj, options),
    patch: (type, namespace, name, patchType, patch, options) => client.patch(type, namespace, name, patchType, patch, options),
    delete: (type, namespace, name, options) => client.delete(type, namespace, name, options),
    createSubresource: (type, namespace, name, subresource, body) => client.createSubresource(type, namespace, name, subresource, body),
  };
  return { client: cached, stop: () => { if (!shared) factory.stop(); } };
}
