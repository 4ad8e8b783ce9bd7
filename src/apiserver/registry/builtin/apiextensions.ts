/** apiextensions.k8s.io/v1 customresourcedefinitions: name defaults, conversion default, storedVersions. */
import { isDeepStrictEqual } from 'node:util';
import { isObject, type KObject } from '../../../api/meta.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { validateCRD, validateCRDUpdate } from './crd-validation.js';
import { builtin, resource } from './define.js';
import { child, ensure, items, setDefault, setDefaultString, str, strings } from '../../../machinery/json.js';

export function defaultCRD(crd: KObject): void {
  const spec = ensure(crd, 'spec');
  const names = ensure(spec, 'names');
  const kind = str(names, 'kind');
  if (kind) {
    setDefaultString(names, 'singular', kind.toLowerCase());
    setDefaultString(names, 'listKind', `${kind}List`);
  }
  setDefault(spec, 'conversion', { strategy: 'None' });
  const service = child(child(child(spec, 'conversion'), 'webhook'), 'clientConfig');
  const ref = child(service, 'service');
  if (ref) setDefault(ref, 'port', 443);
}

/** The storage version joins status.storedVersions as soon as it is the storage version. */
function recordStorageVersion(crd: KObject): void {
  // status may be the stored object's own (an update of the main resource keeps it): replaced, not modified
  const status = isObject(crd.status) ? crd.status : {};
  const stored = strings(status, 'storedVersions');
  const storage = items(child(crd, 'spec'), 'versions').find((v) => v.storage === true);
  const name = str(storage, 'name');
  const storedVersions = name && !stored.includes(name) ? [...stored, name] : stored;
  if (crd.status !== status || !isDeepStrictEqual(status.storedVersions, storedVersions)) crd.status = { ...status, storedVersions };
}

export function prepareCRDForCreate(crd: KObject): void {
  crd.status = { acceptedNames: { kind: '', plural: '' } };
  recordStorageVersion(crd);
}

export function customResourceDefinitionsResource(): BuiltinResource {
  return builtin(resource({
    group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions',
    namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], status: true,
  }), {
    default: defaultCRD,
    returnDeletedObject: true,
    prepareForCreate: prepareCRDForCreate,
    prepareForUpdate: (crd) => recordStorageVersion(crd),
    validate: validateCRD,
    validateUpdate: validateCRDUpdate,
  }, true);
}
