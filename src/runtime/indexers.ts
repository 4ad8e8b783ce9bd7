/**
 * Ready-made index functions for `Store.addIndexer` / `Informer.addIndexer`, with conventional names.
 * Controllers look up "the pods of this CloneSet" with
 * `informer.byIndex(IndexNames.controllerUid, cloneSet.metadata.uid)` instead of scanning the cache.
 */
import type { KObject, OwnerReference } from '../api/meta.js';
import type { IndexFunc } from './store.js';

export const IndexNames = {
  namespace: 'namespace',
  controllerUid: 'controllerUid',
  nodeName: 'spec.nodeName',
  label: (key: string): string => `label:${key}`,
} as const;

export const byNamespace: IndexFunc<KObject> = (obj) => (obj.metadata.namespace ? [obj.metadata.namespace] : []);

/** The ownerReference with `controller: true`, if any (there is at most one). */
export function controllerRef(obj: KObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

export const byControllerUid: IndexFunc<KObject> = (obj) => {
  const uid = controllerRef(obj)?.uid;
  return uid ? [uid] : [];
};

export const byNodeName: IndexFunc<KObject> = (obj) => {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
};

export function byLabel(key: string): IndexFunc<KObject> {
  return (obj) => {
    const value = obj.metadata.labels?.[key];
    return value === undefined ? [] : [value];
  };
}
