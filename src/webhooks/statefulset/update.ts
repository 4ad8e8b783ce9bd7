/**
 * ASTS update rules (docs/design/webhooks.md §9): which spec fields may change, InPlaceOnly image-only
 * template changes, and with the PVC resize gate, claim templates that may only grow in size.
 */
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { deepEqual, clone } from '../../machinery/deep-equal.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';
import { child, items, str, stringMap, type Json } from '../../machinery/json.js';
import { immutableExcept } from '../common/immutable-spec.js';
import { nonImageChange } from '../common/template-diff.js';
import { byCreation } from '../../machinery/order.js';

const mutableFields = ['replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy', 'volumeClaimTemplates', 'volumeClaimUpdateStrategy', 'updateStrategy', 'scaleStrategy'];

export const immutableSpecMessage = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
  + "'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'volumeClaimTemplates', "
  + "'volumeClaimUpdateStrategy', 'updateStrategy' and 'scaleStrategy' are forbidden";

export function validateStatefulSetSpecUpdate(obj: KObject, old: KObject): FieldError[] {
  return immutableExcept('spec', specOf(obj), specOf(old), mutableFields, immutableSpecMessage);
}

/** The denial message of a template change InPlaceOnly cannot apply, or undefined. */
export function inPlaceOnlyViolation(obj: KObject, old: KObject): string | undefined {
  const rolling = child(child(specOf(obj), 'updateStrategy'), 'rollingUpdate');
  if (rolling?.podUpdatePolicy !== 'InPlaceOnly') return undefined;
  const templateSpec = (o: KObject): unknown => child(specOf(o).template, 'spec');
  const change = nonImageChange(templateSpec(old), templateSpec(obj));
  if (!change) return undefined;
  return `invalid template modified with InPlaceOnly strategy: ${change}, currently only image update is allowed for InPlaceOnly`;
}

const StorageClasses: ResourceType = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false };
const defaultClassAnnotation = 'storageclass.kubernetes.io/is-default-class';

/** Resize gate + OnPodRollingUpdate: same claim names, only the storage size may change, and only where the class allows expansion. */
export async function validateClaimTemplateUpdate(client: Client, obj: KObject, old: KObject): Promise<FieldError[]> {
  const type = str(child(specOf(obj), 'volumeClaimUpdateStrategy'), 'type');
  if (type === '' || type === 'OnDelete') return [];
  const claims = items(specOf(obj), 'volumeClaimTemplates');
  const oldClaims = items(specOf(old), 'volumeClaimTemplates');
  if (claims.length !== oldClaims.length) {
    return [field.invalid('spec.volumeClaimTemplates', claims, 'volumeClaimTemplate can not be added or deleted when OnRollingUpdate')];
  }
  const nameOf = (c: Json): string => str(child(c, 'metadata'), 'name');
  for (const claim of claims) {
    const p = `spec.volumeClaimTemplates[${nameOf(claim)}]`;
    const previous = oldClaims.find((c) => nameOf(c) === nameOf(claim));
    if (!previous) return [field.forbidden(`${p}.name`, 'volumeClaimTemplate name can not be modified')];
    if (deepEqual(child(claim, 'spec'), child(previous, 'spec'))) continue;
    if (!deepEqual(withoutStorage(claim), withoutStorage(previous))) {
      return [field.invalid(p, claim, 'volumeClaimTemplate can not be modified when OnRollingUpdate')];
    }
    const denied = await expansionDenied(client, child(claim, 'spec'), p);
    if (denied) return [denied];
  }
  return [];
}

function withoutStorage(claim: Json): unknown {
  const spec = clone(child(claim, 'spec') ?? {});
  const resources = child(spec, 'resources');
  for (const key of ['requests', 'limits']) delete child(resources, key)?.storage;
  return spec;
}

async function expansionDenied(client: Client, spec: Json | undefined, p: string): Promise<FieldError | undefined> {
  const className = spec?.storageClassName;
  let storageClass: KObject | undefined;
  if (typeof className === 'string') {
    try {
      storageClass = await client.get(StorageClasses, undefined, className);
    } catch {
      return field.invalid(`${p}.spec.storageClassName`, className, 'can not get sc');
    }
  } else {
    const list = await client.list(StorageClasses);
    storageClass = list.items.filter((sc) => stringMap(sc.metadata, 'annotations')[defaultClassAnnotation] === 'true')
      .sort(byCreation).pop();
  }
  if (storageClass?.allowVolumeExpansion === false) {
    return field.forbidden(`${p}.spec.resources.requests.storage`, `storage class ${storageClass.metadata.name} does not support volume expansion`);
  }
  return undefined;
}
