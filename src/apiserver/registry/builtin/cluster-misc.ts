/**
 * Smaller groups: scheduling.k8s.io priorityclasses, storage.k8s.io storageclasses,
 * discovery.k8s.io endpointslices, and the create-only review resources the server answers itself.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable, oneOf, qualifiedName } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { items, num, setDefault, setDefaultString, str, strings } from '../../../machinery/json.js';

const systemPriorityClasses: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
const highestUserPriority = 1000000000;

export function validatePriorityClass(pc: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = num(pc, 'value') ?? 0;
  const system = systemPriorityClasses[name] === value && pc.globalDefault !== true;
  if (!system && name.startsWith('system-')) {
    errs.push(field.forbidden('metadata.name', "priority class names with 'system-' prefix are reserved for system use only"));
  }
  if (!system && value > highestUserPriority) {
    errs.push(field.forbidden('value', `maximum allowed value of a user defined priority is ${highestUserPriority}`));
  }
  errs.push(...oneOf('preemptionPolicy', pc.preemptionPolicy, ['Never', 'PreemptLowerPriority'], false));
  return errs;
}

export function priorityClassesResource(): BuiltinResource {
  return builtin(resource({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false, shortNames: ['pc'] }), {
    default: (pc) => setDefault(pc, 'preemptionPolicy', 'PreemptLowerPriority'),
    validate: validatePriorityClass,
    validateUpdate: (pc, old) => [
      ...((num(pc, 'value') ?? 0) !== (num(old, 'value') ?? 0) ? [field.forbidden('value', 'may not be changed in an update.')] : []),
      ...immutable('preemptionPolicy', pc.preemptionPolicy, old.preemptionPolicy),
    ],
  }, true);
}

export function validateStorageClass(sc: KObject): FieldError[] {
  const provisioner = str(sc, 'provisioner');
  const errs: FieldError[] = provisioner ? qualifiedName('provisioner', provisioner.toLowerCase()) : [field.required('provisioner')];
  errs.push(...oneOf('reclaimPolicy', sc.reclaimPolicy, ['Delete', 'Recycle', 'Retain'], false));
  errs.push(...oneOf('volumeBindingMode', sc.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer'], false));
  return errs;
}

export function validateStorageClassUpdate(sc: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['parameters', 'provisioner', 'reclaimPolicy']) {
    if (!semanticEqual(sc[key], old[key])) errs.push(field.forbidden(key, `updates to ${key} are forbidden.`));
  }
  errs.push(...immutable('volumeBindingMode', sc.volumeBindingMode, old.volumeBindingMode));
  return errs;
}

export function storageClassesResource(): BuiltinResource {
  return builtin(resource({ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false, shortNames: ['sc'] }), {
    default: (sc) => {
      setDefaultString(sc, 'reclaimPolicy', 'Delete');
      setDefaultString(sc, 'volumeBindingMode', 'Immediate');
    },
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
    returnDeletedObject: true,
  });
}

export function validateEndpointSlice(slice: KObject): FieldError[] {
  const errs = oneOf('addressType', slice.addressType, ['FQDN', 'IPv4', 'IPv6']);
  items(slice, 'endpoints').forEach((ep, i) => {
    if (strings(ep, 'addresses').length === 0) errs.push(field.required(`endpoints[${i}].addresses`, 'must contain at least 1 address'));
  });
  items(slice, 'ports').forEach((port, i) => errs.push(...oneOf(`ports[${i}].protocol`, port.protocol, ['SCTP', 'TCP', 'UDP'], false)));
  return errs;
}

export function endpointSlicesResource(): BuiltinResource {
  return builtin(resource({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true }), {
    default: (slice) => {
      for (const port of items(slice, 'ports')) {
        setDefault(port, 'name', '');
        setDefaultString(port, 'protocol', 'TCP');
      }
    },
    validate: validateEndpointSlice,
    validateUpdate: (slice, old) => immutable('addressType', slice.addressType, old.addressType),
  }, true);
}

/** Create-only reviews; the server computes their status itself (http/reviews.ts). */
export function reviewResources(): BuiltinResource[] {
  const review = (group: string, kind: string, plural: string, namespaced = false) =>
    builtin(resource({ group, version: 'v1', kind, plural, namespaced, verbs: ['create'] }), {});
  return [
    review('authorization.k8s.io', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true),
    review('authorization.k8s.io', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews'),
    review('authorization.k8s.io', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews'),
    review('authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews'),
    review('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews'),
    review('authentication.k8s.io', 'TokenReview', 'tokenreviews'),
  ];
}
