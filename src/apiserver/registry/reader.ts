/**
 * Reads of what is stored, by resource, for the API server's own machinery: admission (webhook
 * configurations, Services and Endpoints of webhooks, Namespaces for selectors) and the system
 * controllers. Nothing is converted, defaulted or admitted, and objects are the store's own
 * (callers must not mutate them). Writes always go through the Registry.
 *
 * It needs only the store and the resource table, so it exists before the Registry and its
 * admission chain: admission reads through it and the Registry takes the admission at
 * construction, with no setter closing a loop afterwards.
 */
import type { KObject } from '../../api/meta.js';
import type { Store, StoreEvent, WatchHandle } from '../storage/store.js';
import { collectionPrefix, everyObjectPrefix, objectKey, storagePrefixOfKey } from './keys.js';
import type { ResourceTable } from './resource-table.js';
import type { ServedResource } from './served-resource.js';

export type { StoreEvent as StoredEvent, WatchHandle } from '../storage/store.js';

export interface StoredList {
  items: KObject[];
  /** Store revision the list was taken at; a watch from it misses nothing. */
  rv: number;
}

/** An object of the store-wide list, with the key the store-wide watch reports it under. */
export interface StoredEntry {
  key: string;
  object: KObject;
}

export class RegistryReader {
  constructor(private readonly store: Store, readonly table: ResourceTable) {}

  getStored(r: ServedResource, namespace: string | undefined, name: string): KObject | undefined {
    return this.store.get(objectKey(r, namespace, name))?.object;
  }

  /** One namespace's objects, or all of them when `namespace` is undefined (or `r` is cluster-scoped). */
  listStored(r: ServedResource, namespace?: string): StoredList {
    const list = this.store.list(collectionPrefix(r, namespace));
    return { items: list.items.map((i) => i.object), rv: list.rv };
  }

  /** Changes after `fromRv` (a list's rv), delivered synchronously after each durable write. */
  watchStored(r: ServedResource, namespace: string | undefined, fromRv: number, onEvent: (e: StoreEvent) => void): WatchHandle {
    return this.store.watch(collectionPrefix(r, namespace), fromRv, onEvent);
  }

  /** Every stored object of every resource, for machinery that follows all of them with one watch. */
  listEverything(): { items: StoredEntry[]; rv: number } {
    const list = this.store.list(everyObjectPrefix);
    return { items: list.items.map((i) => ({ key: i.key, object: i.object })), rv: list.rv };
  }

  watchEverything(fromRv: number, onEvent: (e: StoreEvent) => void): WatchHandle {
    return this.store.watch(everyObjectPrefix, fromRv, onEvent);
  }

  /** A served resource whose objects live under `key` (any of its versions), if one is still served. */
  resourceOfKey(key: string): ServedResource | undefined {
    return this.table.versionsOf(storagePrefixOfKey(key))[0];
  }
}
