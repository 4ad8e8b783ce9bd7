/**
 * storage.k8s.io/v1 CSIDriver, CSINode, VolumeAttachment and CSIStorageCapacity: kube-apiserver
 * 1.32's defaults and validation, measured against it (docs/design/storage-provisioning.md §1).
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { child, ensure, items, setDefault, str, strings, type Json } from '../../../machinery/json.js';
import { compareQuantities } from '../../../machinery/quantity.js';
import { dnsSubdomain, immutable, nonNegative, oneOf } from '../../../machinery/validation/checks.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';

const storage = (kind: string, plural: string, namespaced = false, status = false) =>
  resource({ group: 'storage.k8s.io', version: 'v1', kind, plural, namespaced, status });

/** A required DNS-subdomain string: Required when empty, then the subdomain messages (kube reports both). */
function requiredSubdomain(path: string, value: string): FieldError[] {
  return [...(value === '' ? [field.required(path)] : []), ...dnsSubdomain(path, value)];
}

export function defaultCSIDriver(d: KObject): void {
  const spec = ensure(d, 'spec');
  setDefault(spec, 'attachRequired', true);
  setDefault(spec, 'podInfoOnMount', false);
  setDefault(spec, 'storageCapacity', false);
  setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  setDefault(spec, 'requiresRepublish', false);
  setDefault(spec, 'seLinuxMount', false);
  setDefault(spec, 'volumeLifecycleModes', ['Persistent']);
}

export function validateCSIDriver(d: KObject): FieldError[] {
  const spec = child(d, 'spec');
  const errs = oneOf('spec.fsGroupPolicy', spec?.fsGroupPolicy, ['File', 'None', 'ReadWriteOnceWithFSType'], false);
  for (const mode of strings(spec, 'volumeLifecycleModes')) errs.push(...oneOf('spec.volumeLifecycleModes', mode, ['Persistent', 'Ephemeral']));
  return errs;
}

/** kube names the attachRequired path `spec.attachedRequired` in this message. */
export function validateCSIDriverUpdate(d: KObject, old: KObject): FieldError[] {
  const spec = child(d, 'spec');
  const oldSpec = child(old, 'spec');
  return [...validateCSIDriver(d), ...immutable('spec.attachedRequired', spec?.attachRequired, oldSpec?.attachRequired),
    ...immutable('spec.volumeLifecycleModes', spec?.volumeLifecycleModes, oldSpec?.volumeLifecycleModes)];
}

export function validateCSINode(n: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  items(child(n, 'spec'), 'drivers').forEach((driver, i) => {
    const p = `spec.drivers[${i}]`;
    const name = str(driver, 'name');
    errs.push(...requiredSubdomain(`${p}.name`, name));
    if (str(driver, 'nodeID') === '') errs.push(field.required(`${p}.nodeID`));
    errs.push(...nonNegative(`${p}.allocatable.count`, child(driver, 'allocatable')?.count));
    if (name !== '' && seen.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    seen.add(name);
  });
  return errs;
}

/** Drivers may come and go; a driver kept under its name may not change. */
export function validateCSINodeUpdate(n: KObject, old: KObject): FieldError[] {
  const before = new Map(items(child(old, 'spec'), 'drivers').map((d) => [str(d, 'name'), d]));
  const changed = items(child(n, 'spec'), 'drivers').filter((d) => before.has(str(d, 'name')) && !deepEqual(d, before.get(str(d, 'name'))));
  return [...validateCSINode(n), ...changed.map((d) => field.invalid('CSINodeDriver', d, 'field is immutable'))];
}

export function validateVolumeAttachment(va: KObject): FieldError[] {
  const spec = child(va, 'spec');
  const attacher = str(spec, 'attacher');
  const errs = attacher === '' ? [field.required('spec.attacher')] : [];
  const source = child(spec, 'source');
  if ((source?.persistentVolumeName === undefined) === (source?.inlineVolumeSpec === undefined)) {
    errs.push(field.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  }
  // then the CSI driver name check of the attacher, which reports an empty name as Required again
  errs.push(...dnsSubdomain('spec.nodeName', str(spec, 'nodeName')), ...requiredSubdomain('spec.attacher', attacher));
  return errs;
}

export function validateCSIStorageCapacity(c: KObject): FieldError[] {
  const errs = dnsSubdomain('storageClassName', str(c, 'storageClassName'));
  for (const key of ['capacity', 'maximumVolumeSize']) {
    const q = (c as Json)[key];
    if (typeof q === 'string' && compareQuantities(q, '0') < 0) errs.push(field.invalid(key, q, 'must be greater than or equal to 0'));
  }
  return errs;
}

export function csiResources(): BuiltinResource[] {
  return [
    builtin(storage('CSIDriver', 'csidrivers'), { default: defaultCSIDriver, validate: validateCSIDriver, validateUpdate: validateCSIDriverUpdate }),
    builtin(storage('CSINode', 'csinodes'), {
      default: (n) => setDefault(ensure(n, 'spec'), 'drivers', null), validate: validateCSINode, validateUpdate: validateCSINodeUpdate,
    }),
    builtin(storage('CSIStorageCapacity', 'csistoragecapacities', true), {
      validate: validateCSIStorageCapacity,
      validateUpdate: (c, old) => [...validateCSIStorageCapacity(c), ...immutable('storageClassName', c.storageClassName, old.storageClassName)],
    }),
    builtin(storage('VolumeAttachment', 'volumeattachments', false, true), {
      default: (va) => setDefault(ensure(va, 'status'), 'attached', false),
      prepareForCreate: (va) => setDefault(ensure(va, 'status'), 'attached', false),
      validate: validateVolumeAttachment,
      validateUpdate: (va, old) => [...validateVolumeAttachment(va), ...immutable('spec', va.spec, old.spec)],
    }),
  ];
}
