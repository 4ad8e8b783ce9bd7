/** apps/v1 daemonsets and controllerrevisions. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable, intOrPercent, intOrPercentIsZero, nonNegative } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { isEmptySelector, validateLabelSelector } from '../../../machinery/validation/label-selector.js';
import { child, ensure, isObject, setDefault, setDefaultString, type Json } from '../../../machinery/json.js';
import { specOf, validateLongRunningTemplate, validateSelectorMatchesTemplate } from '../../../machinery/podspec/workload-validation.js';

export function defaultDaemonSet(ds: KObject): void {
  const spec = ensure(ds, 'spec');
  const strategy = ensure(spec, 'updateStrategy');
  setDefaultString(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = ensure(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', 1);
    setDefault(rolling, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(spec.template);
}

export function validateDaemonSet(ds: KObject): FieldError[] {
  const spec = specOf(ds);
  const errs: FieldError[] = [];
  if (!isObject(spec.selector)) errs.push(field.required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    errs.push(...validateSelectorMatchesTemplate(spec, 'spec'));
    if (isEmptySelector(spec.selector)) errs.push(field.invalid('spec.selector', spec.selector, 'empty selector is invalid for daemonset'));
  }
  errs.push(...validateLongRunningTemplate(spec, 'spec', 'DaemonSet'));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  errs.push(...validateDaemonSetStrategy(child(spec, 'updateStrategy')));
  return errs;
}

function validateDaemonSetStrategy(strategy: Json | undefined): FieldError[] {
  const path = 'spec.updateStrategy';
  if (strategy?.type === 'OnDelete') return [];
  if (strategy?.type !== 'RollingUpdate') return [field.notSupported(path, strategy ?? null, ['RollingUpdate', 'OnDelete'])];
  const rolling = child(strategy, 'rollingUpdate');
  if (!rolling) return [field.required(`${path}.rollingUpdate`)];
  const p = `${path}.rollingUpdate`;
  const errs = [...intOrPercent(`${p}.maxUnavailable`, rolling.maxUnavailable, true), ...intOrPercent(`${p}.maxSurge`, rolling.maxSurge, true)];
  const hasUnavailable = !intOrPercentIsZero(rolling.maxUnavailable);
  const hasSurge = !intOrPercentIsZero(rolling.maxSurge);
  if (hasUnavailable && hasSurge) errs.push(field.invalid(`${p}.maxSurge`, rolling.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(field.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

export function daemonSetsResource(): BuiltinResource {
  return builtin(resource({
    group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true,
    shortNames: ['ds'], categories: ['all'], status: true,
  }), {
    default: defaultDaemonSet,
    validate: validateDaemonSet,
    validateUpdate: (ds, old) => immutable('spec.selector', specOf(ds).selector, specOf(old).selector),
  }, true);
}

export function controllerRevisionsResource(): BuiltinResource {
  return builtin(resource({ group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true }), {
    validate: (cr) => nonNegative('revision', cr.revision),
    validateUpdate: (cr, old) => immutable('data', cr.data, old.data),
  });
}
