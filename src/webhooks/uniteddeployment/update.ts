/**
 * UnitedDeployment update rules (docs/design/webhooks.md §13): the template kind stays, a
 * StatefulSet template changes only template/updateStrategy/retention/minReadySeconds/ordinals, an
 * Advanced StatefulSet template only template/updateStrategy, and existing subsets keep their node
 * selector and tolerations.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';
import { child, items, str, type Json } from '../../machinery/json.js';
import { immutableExcept } from '../common/immutable-spec.js';
import { presentKinds } from './template-validation.js';

const mutableTemplateFields: Record<string, string[]> = {
  statefulSetTemplate: ['replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds', 'ordinals'],
  advancedStatefulSetTemplate: ['replicas', 'template', 'updateStrategy'],
};

const templateMessages: Record<string, string> = {
  statefulSetTemplate: "updates to statefulSetTemplate spec for fields other than 'template', 'updateStrategy', "
    + "'persistentVolumeClaimRetentionPolicy', 'minReadySeconds' and 'ordinals' are forbidden",
  advancedStatefulSetTemplate: "updates to advancedStatefulSetTemplate spec for fields other than 'template' and 'updateStrategy' are forbidden",
};

export function validateUnitedDeploymentUpdate(obj: KObject, old: KObject): FieldError[] {
  return [...templateUpdateErrors(child(specOf(obj), 'template'), child(specOf(old), 'template')), ...topologyUpdateErrors(obj, old)];
}

function templateUpdateErrors(template: Json | undefined, oldTemplate: Json | undefined): FieldError[] {
  const kind = presentKinds(template)[0];
  const oldKind = presentKinds(oldTemplate)[0];
  if (kind !== oldKind) {
    return [field.forbidden('spec.template', `the subset workload kind may not be changed in an update (from ${oldKind} to ${kind})`)];
  }
  const mutable = mutableTemplateFields[kind];
  if (!mutable) return [];
  const specIn = (t: Json | undefined) => child(child(t, kind), 'spec');
  return immutableExcept(`spec.template.${kind}.spec`, specIn(template), specIn(oldTemplate), mutable, templateMessages[kind]);
}

function topologyUpdateErrors(obj: KObject, old: KObject): FieldError[] {
  const oldSubsets = new Map(items(child(specOf(old), 'topology'), 'subsets').map((s) => [str(s, 'name'), s]));
  const errs: FieldError[] = [];
  items(child(specOf(obj), 'topology'), 'subsets').forEach((subset, i) => {
    const previous = oldSubsets.get(str(subset, 'name'));
    if (!previous) return;
    for (const key of ['nodeSelectorTerm', 'tolerations']) {
      if (!deepEqual(subset[key] ?? null, previous[key] ?? null)) {
        errs.push(field.forbidden(`spec.topology.subsets[${i}].${key}`, 'may not be changed in an update'));
      }
    }
  });
  return errs;
}
