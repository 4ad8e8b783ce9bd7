/** core/v1 persistentvolumeclaims and persistentvolumes: defaults, required fields, claim spec immutability. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { clone } from '../../../machinery/deep-equal.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { defaultClaimSpec } from '../../../machinery/podspec/pod-spec-defaults.js';
import { canonicalizeResourceList } from '../../../machinery/podspec/quantities.js';
import { child, ensure, setDefaultString, str, strings, type Json } from '../../../machinery/json.js';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

function validateAccessModes(spec: Json | undefined): FieldError[] {
  const modes = strings(spec, 'accessModes');
  if (modes.length === 0) return [field.required('spec.accessModes', 'at least 1 access mode is required')];
  return modes.filter((m) => !accessModes.includes(m)).map((m) => field.notSupported('spec.accessModes', m, accessModes));
}

export function defaultClaim(pvc: KObject): void {
  defaultClaimSpec(ensure(pvc, 'spec'));
  setDefaultString(ensure(pvc, 'status'), 'phase', 'Pending');
  canonicalizeResourceList(child(child(pvc, 'status'), 'capacity'));
}

export function validateClaim(pvc: KObject): FieldError[] {
  const spec = child(pvc, 'spec');
  const errs = validateAccessModes(spec);
  if (child(child(spec, 'resources'), 'requests')?.storage === undefined) errs.push(field.required('spec.resources[storage]'));
  return errs;
}

/** Only requests (expansion), volumeAttributesClassName and a first volumeName may change. */
export function validateClaimUpdate(pvc: KObject, old: KObject): FieldError[] {
  const munge = (spec: Json, other: Json) => {
    const copy = clone(spec);
    const resources = child(copy, 'resources');
    if (resources) delete resources.requests;
    delete copy.volumeAttributesClassName;
    if (!str(other, 'volumeName')) delete copy.volumeName;
    return copy;
  };
  const spec = child(pvc, 'spec') ?? {};
  const oldSpec = child(old, 'spec') ?? {};
  if (semanticEqual(munge(spec, oldSpec), munge(oldSpec, oldSpec))) return [];
  return [field.forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n')];
}

export function claimsResource(): BuiltinResource {
  return builtin(resource({
    group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true, shortNames: ['pvc'], status: true,
  }), { default: defaultClaim, prepareForCreate: (pvc) => setDefaultString(ensure(pvc, 'status'), 'phase', 'Pending'), validate: validateClaim, validateUpdate: validateClaimUpdate, returnDeletedObject: true });
}

const nonSourceKeys = new Set(['accessModes', 'capacity', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName',
  'mountOptions', 'volumeMode', 'nodeAffinity', 'volumeAttributesClassName']);

export function defaultVolume(pv: KObject): void {
  const spec = ensure(pv, 'spec');
  setDefaultString(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefaultString(spec, 'volumeMode', 'Filesystem');
  canonicalizeResourceList(child(spec, 'capacity'));
  setDefaultString(ensure(pv, 'status'), 'phase', 'Pending');
}

export function validateVolume(pv: KObject): FieldError[] {
  const spec = child(pv, 'spec') ?? {};
  const errs = validateAccessModes(spec);
  if (!child(spec, 'capacity')) errs.push(field.required('spec.capacity'));
  if (!Object.keys(spec).some((k) => !nonSourceKeys.has(k) && spec[k] !== undefined && spec[k] !== null)) {
    errs.push(field.required('spec', 'must specify a volume type'));
  }
  return errs;
}

export function persistentVolumesResource(): BuiltinResource {
  return builtin(resource({
    group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false, shortNames: ['pv'], status: true,
  }), { default: defaultVolume, prepareForCreate: (pv) => setDefaultString(ensure(pv, 'status'), 'phase', 'Pending'), validate: validateVolume, returnDeletedObject: true });
}
