/** apps/v1 deployments and replicasets: SetDefaults_Deployment/ReplicaSet and their validation. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable, intOrPercent, intOrPercentIsZero, nonNegative } from '../../../machinery/validation/checks.js';
import { builtin, replicasScale, resource } from './define.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, has, num, setDefault, setDefaultString, type Json } from '../../../machinery/json.js';
import { specOf, validateLongRunningTemplate, validateRequiredSelector, validateSelectorMatchesTemplate } from '../../../machinery/podspec/workload-validation.js';

export function defaultDeployment(d: KObject): void {
  const spec = ensure(d, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensure(spec, 'strategy');
  setDefaultString(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = ensure(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', '25%');
    setDefault(rolling, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(spec.template);
}

/** ReplicaSet and Deployment share this part (upstream even says "deployment" for both). */
function validateReplicatedSpec(spec: Json): FieldError[] {
  return [
    ...nonNegative('spec.replicas', spec.replicas),
    ...nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...validateRequiredSelector(spec, 'spec', 'deployment'),
    ...validateSelectorMatchesTemplate(spec, 'spec'),
    ...validateLongRunningTemplate(spec, 'spec', 'ReplicaSet'),
  ];
}

export function validateDeployment(d: KObject): FieldError[] {
  const spec = specOf(d);
  const errs = validateReplicatedSpec(spec);
  errs.push(...validateDeploymentStrategy(child(spec, 'strategy')));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  const deadline = num(spec, 'progressDeadlineSeconds');
  errs.push(...nonNegative('spec.progressDeadlineSeconds', deadline));
  if (deadline !== undefined && deadline <= (num(spec, 'minReadySeconds') ?? 0)) {
    errs.push(field.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

function validateDeploymentStrategy(strategy: Json | undefined): FieldError[] {
  const path = 'spec.strategy';
  const rolling = child(strategy, 'rollingUpdate');
  switch (strategy?.type) {
    case 'Recreate':
      return has(strategy, 'rollingUpdate') ? [field.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      if (!rolling) return [field.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const errs = [
        ...intOrPercent(`${path}.rollingUpdate.maxUnavailable`, rolling.maxUnavailable, true),
        ...intOrPercent(`${path}.rollingUpdate.maxSurge`, rolling.maxSurge),
      ];
      if (intOrPercentIsZero(rolling.maxUnavailable) && intOrPercentIsZero(rolling.maxSurge)) {
        errs.push(field.invalid(`${path}.rollingUpdate.maxUnavailable`, rolling.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      return errs;
    }
    default:
      return [field.notSupported(path, strategy ?? null, ['Recreate', 'RollingUpdate'])];
  }
}

const selectorImmutable = (obj: KObject, old: KObject): FieldError[] =>
  immutable('spec.selector', specOf(obj).selector, specOf(old).selector);

export function deploymentsResource(): BuiltinResource {
  return builtin(resource({
    group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true,
    shortNames: ['deploy'], categories: ['all'], status: true, scale: replicasScale,
  }), { default: defaultDeployment, validate: validateDeployment, validateUpdate: selectorImmutable, annotationsBumpGeneration: true }, true);
}

export function defaultReplicaSet(rs: KObject): void {
  const spec = ensure(rs, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec.template);
}

export function replicaSetsResource(): BuiltinResource {
  return builtin(resource({
    group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true,
    shortNames: ['rs'], categories: ['all'], status: true, scale: replicasScale,
  }), {
    default: defaultReplicaSet,
    validate: (rs) => validateReplicatedSpec(specOf(rs)),
    validateUpdate: selectorImmutable,
    fieldAttributes: (rs) => ({ 'status.replicas': String(num(child(rs, 'status'), 'replicas') ?? 0) }),
  }, true);
}
