/**
 * Storage keys, the one place they are spelled: `/<group or core>/<plural>/<namespace>/<name>` for
 * namespaced objects, `/<group or core>/<plural>/<name>` otherwise. Nothing else builds a key.
 */
import type { ServedResource } from './served-resource.js';

export function storagePrefixFor(group: string, plural: string): string {
  return `/${group || 'core'}/${plural}`;
}

export function objectKey(r: ServedResource, namespace: string | undefined, name: string): string {
  return r.definition.namespaced ? `${r.storagePrefix}/${namespace}/${name}` : `${r.storagePrefix}/${name}`;
}

/** Prefix of a collection: one namespace, or every namespace when `namespace` is undefined. */
export function collectionPrefix(r: ServedResource, namespace: string | undefined): string {
  return r.definition.namespaced && namespace ? `${r.storagePrefix}/${namespace}/` : `${r.storagePrefix}/`;
}

/** Prefix of every stored object of every resource (the garbage collector's view). */
export const everyObjectPrefix = '/';

/** A Namespace's key without a table lookup: every namespaced write checks its namespace. */
export function namespaceKey(name: string): string {
  return `${storagePrefixFor('', 'namespaces')}/${name}`;
}

/** The storage prefix a key lives under (`/apps/deployments` for `/apps/deployments/ns/name`). */
export function storagePrefixOfKey(key: string): string {
  return key.split('/', 3).join('/');
}
