/**
 * kube-apiserver's built-in claim admission (docs/design/storage-provisioning.md §5): DefaultStorageClass
 * gives a new claim without `storageClassName` the default class; PersistentVolumeClaimResize lets a
 * claim's storage request grow only while the claim is Bound and its StorageClass sets
 * `allowVolumeExpansion: true`, otherwise the update is Forbidden with kube's words.
 */
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import { compareQuantities } from '../../machinery/quantity.js';
import type { RegistryCore } from './core.js';
import { storagePrefixFor } from './keys.js';
import type { ServedResource } from './served-resource.js';
import { byCreation, byName } from '../../machinery/order.js';

const storageRequest = (pvc: KObject): string | undefined =>
  ((pvc.spec as { resources?: { requests?: Record<string, string> } } | undefined)?.resources?.requests ?? {}).storage;

function grows(pvc: KObject, old: KObject): boolean {
  const next = storageRequest(pvc);
  const prev = storageRequest(old);
  if (next === undefined || prev === undefined) return false;
  try {
    return compareQuantities(next, prev) > 0;
  } catch {
    return false;
  }
}

const isClaims = (r: ServedResource) => r.definition.group === '' && r.definition.plural === 'persistentvolumeclaims';
const classPrefix = storagePrefixFor('storage.k8s.io', 'storageclasses');
const defaultAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** The newest class annotated default (ties: the name first in order), as kube's GetDefaultClass picks it. */
function defaultClassName(core: RegistryCore): string | undefined {
  const defaults = core.store.list(`${classPrefix}/`).items.map((s) => s.object)
    .filter((sc) => defaultAnnotations.some((a) => sc.metadata.annotations?.[a] === 'true'))
    .sort((a, b) => byCreation(b, a) || byName(a, b));
  return defaults[0]?.metadata.name;
}

/** DefaultStorageClass: only an absent class (not "") and no beta class annotation get the default. */
export function defaultClaimClass(core: RegistryCore, r: ServedResource, pvc: KObject): void {
  if (!isClaims(r)) return;
  const spec = (pvc.spec ??= {}) as { storageClassName?: string | null };
  if (spec.storageClassName !== undefined && spec.storageClassName !== null) return;
  if (pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
  const name = defaultClassName(core);
  if (name) spec.storageClassName = name;
}

function forbidden(name: string, message: string): StatusError {
  return new StatusError(403, 'Forbidden', `persistentvolumeclaims "${name}" is forbidden: ${message}`, { name, kind: 'persistentvolumeclaims' });
}

export function checkClaimResize(core: RegistryCore, r: ServedResource, pvc: KObject, old: KObject, subresource: string | undefined): void {
  if (!isClaims(r) || subresource) return;
  if (!grows(pvc, old)) return;
  const name = old.metadata.name ?? '';
  if ((old.status as { phase?: string } | undefined)?.phase !== 'Bound') throw forbidden(name, 'Only bound persistent volume claims can be expanded');
  const className = (pvc.spec as { storageClassName?: string } | undefined)?.storageClassName;
  const sc = className ? core.store.get(`${classPrefix}/${className}`) : undefined;
  if (sc?.object.allowVolumeExpansion !== true) {
    throw forbidden(name, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  }
}
