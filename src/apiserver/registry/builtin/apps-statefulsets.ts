/** apps/v1 statefulsets: SetDefaults_StatefulSet, validation, and the narrow set of updatable spec fields. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { clone } from '../../../machinery/deep-equal.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { nonNegative, oneOf } from '../../../machinery/validation/checks.js';
import { builtin, replicasScale, resource } from './define.js';
import { defaultClaimSpec, defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, items, setDefault, setDefaultString, type Json } from '../../../machinery/json.js';
import { specOf, validateLongRunningTemplate, validateRequiredSelector, validateSelectorMatchesTemplate } from '../../../machinery/podspec/workload-validation.js';

export function defaultStatefulSet(sts: KObject): void {
  const spec = ensure(sts, 'spec');
  setDefaultString(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = ensure(spec, 'updateStrategy');
  setDefaultString(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') setDefault(ensure(strategy, 'rollingUpdate'), 'partition', 0);
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  const retention = ensure(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefaultString(retention, 'whenDeleted', 'Retain');
  setDefaultString(retention, 'whenScaled', 'Retain');
  defaultPodTemplate(spec.template);
  for (const claim of items(spec, 'volumeClaimTemplates')) defaultClaimTemplate(claim);
}

/** Claim templates are full PVC objects on the wire: TypeMeta, volumeMode and a Pending status. */
function defaultClaimTemplate(claim: Json): void {
  setDefaultString(claim, 'apiVersion', 'v1');
  setDefaultString(claim, 'kind', 'PersistentVolumeClaim');
  defaultClaimSpec(ensure(claim, 'spec'));
  setDefaultString(ensure(claim, 'status'), 'phase', 'Pending');
}

export function validateStatefulSet(sts: KObject): FieldError[] {
  const spec = specOf(sts);
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (!policy) errs.push(field.required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(field.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(child(spec, 'updateStrategy')));
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  for (const key of ['whenDeleted', 'whenScaled']) {
    errs.push(...oneOf(`spec.persistentVolumeClaimRetentionPolicy.${key}`, retention?.[key], ['Retain', 'Delete'], false));
  }
  errs.push(...nonNegative('spec.replicas', spec.replicas));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...validateRequiredSelector(spec, 'spec', 'statefulset'));
  errs.push(...validateSelectorMatchesTemplate(spec, 'spec'));
  errs.push(...validateLongRunningTemplate(spec, 'spec', 'StatefulSet'));
  return errs;
}

function validateUpdateStrategy(strategy: Json | undefined): FieldError[] {
  const path = 'spec.updateStrategy';
  switch (strategy?.type) {
    case undefined: case null: case '':
      return [field.required(path)];
    case 'OnDelete':
      return strategy.rollingUpdate ? [field.invalid(`${path}.rollingUpdate`, strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return nonNegative(`${path}.rollingUpdate.partition`, child(strategy, 'rollingUpdate')?.partition);
    default:
      return [field.invalid(path, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

const updatableStatefulSetFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

export function validateStatefulSetUpdate(sts: KObject, old: KObject): FieldError[] {
  const rest = (spec: Json) => {
    const copy = clone(spec);
    for (const key of updatableStatefulSetFields) delete copy[key];
    return copy;
  };
  if (semanticEqual(rest(specOf(sts)), rest(specOf(old)))) return [];
  return [field.forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', "
    + "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
}

export function statefulSetsResource(): BuiltinResource {
  return builtin(resource({
    group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true,
    shortNames: ['sts'], categories: ['all'], status: true, scale: replicasScale,
  }), { default: defaultStatefulSet, validate: validateStatefulSet, validateUpdate: validateStatefulSetUpdate }, true);
}
