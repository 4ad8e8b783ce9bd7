/** Storage keys: `<prefix>/<namespace>/<name>` for namespaced objects, `<prefix>/<name>` otherwise. */
import type { ServedResource } from './served-resource.js';

export function objectKey(r: ServedResource, namespace: string | undefined, name: string): string {
  return r.definition.namespaced ? `${r.storagePrefix}/${namespace}/${name}` : `${r.storagePrefix}/${name}`;
}

/** Prefix of a collection: one namespace, or every namespace when `namespace` is undefined. */
export function collectionPrefix(r: ServedResource, namespace: string | undefined): string {
  return r.definition.namespaced && namespace ? `${r.storagePrefix}/${namespace}/` : `${r.storagePrefix}/`;
}

export function storagePrefixFor(group: string, plural: string): string {
  return `/${group || 'core'}/${plural}`;
}
