/** policy/v1 poddisruptionbudgets and coordination.k8s.io/v1 leases. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { intOrPercent, nonNegative, oneOf } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { validateLabelSelector } from '../../../machinery/validation/label-selector.js';
import { has, num } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';

export function validatePodDisruptionBudget(pdb: KObject): FieldError[] {
  const spec = specOf(pdb);
  const errs: FieldError[] = [];
  if (has(spec, 'minAvailable') && has(spec, 'maxUnavailable')) {
    errs.push(field.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  errs.push(...intOrPercent('spec.minAvailable', spec.minAvailable, true));
  errs.push(...intOrPercent('spec.maxUnavailable', spec.maxUnavailable, true));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  errs.push(...oneOf('spec.unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, ['AlwaysAllow', 'IfHealthyBudget'], false));
  return errs;
}

export function podDisruptionBudgetsResource(): BuiltinResource {
  return builtin(resource({
    group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true,
    shortNames: ['pdb'], status: true,
  }), { validate: validatePodDisruptionBudget }, true);
}

export function validateLease(lease: KObject): FieldError[] {
  const spec = specOf(lease);
  const errs: FieldError[] = [];
  const duration = num(spec, 'leaseDurationSeconds');
  if (duration !== undefined && duration <= 0) errs.push(field.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  errs.push(...nonNegative('spec.leaseTransitions', spec.leaseTransitions));
  return errs;
}

export function leasesResource(): BuiltinResource {
  return builtin(resource({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true }), {
    validate: validateLease,
  });
}
