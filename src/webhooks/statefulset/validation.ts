/**
 * Advanced StatefulSet spec validation (docs/design/webhooks.md §9): podManagementPolicy, reserveOrdinals,
 * scale and update strategies, PVC retention, replicas, selector and pod template.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf, validateRequiredSelector, validateSelectorMatchesTemplate } from '../../machinery/podspec/workload-validation.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { child, has, type Json } from '../../machinery/json.js';
import { validateWorkloadMeta } from '../common/meta.js';
import { validateWorkloadTemplate } from '../common/workload-template.js';
import { validateRetentionPolicy } from '../common/retention-policy.js';
import { validateMaxUnavailable, validateStatefulSetUpdateStrategy } from './rolling-update.js';

export function validateStatefulSet(obj: KObject): FieldError[] {
  const spec = specOf(obj);
  return [
    ...validateWorkloadMeta(obj),
    ...podManagementPolicyErrors(spec),
    ...reserveOrdinalErrors(spec.reserveOrdinals),
    ...scaleStrategyErrors(spec),
    ...validateStatefulSetUpdateStrategy(spec),
    ...validateRetentionPolicy(child(spec, 'persistentVolumeClaimRetentionPolicy'), 'spec.persistentVolumeClaimRetentionPolicy'),
    ...nonNegative('spec.replicas', spec.replicas),
    ...validateRequiredSelector(spec, 'spec', 'statefulset'),
    ...validateSelectorMatchesTemplate(spec, 'spec'),
    ...validateWorkloadTemplate(spec, 'spec', { kind: 'StatefulSet' }),
  ];
}

function podManagementPolicyErrors(spec: Json): FieldError[] {
  const policy = spec.podManagementPolicy ?? '';
  if (policy === '') return [field.required('spec.podManagementPolicy')];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [field.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'")];
}

const rangePattern = /^(\d+)-(\d+)$/;

/** Integers ≥ 0, or inclusive ranges "a-b" with a ≤ b. */
export function reserveOrdinalErrors(ordinals: unknown): FieldError[] {
  if (!Array.isArray(ordinals)) return [];
  const errs: FieldError[] = [];
  ordinals.forEach((value: unknown, i) => {
    const p = `spec.reserveOrdinals[${i}]`;
    if (typeof value === 'number') {
      if (value < 0) errs.push(field.invalid(p, value, `${i} th reserve ordinal is negative: ${value}`));
      return;
    }
    const match = typeof value === 'string' ? rangePattern.exec(value) : null;
    if (!match) errs.push(field.invalid(p, value, `${i} th reserve ordinal is not a valid range: ${String(value)}`));
    else if (Number(match[1]) > Number(match[2])) {
      errs.push(field.invalid(p, value, `${i} th reserve ordinal is invalid: ${value}, start ${match[1]} is greater than end ${match[2]}`));
    }
  });
  return errs;
}

function scaleStrategyErrors(spec: Json): FieldError[] {
  const strategy = child(spec, 'scaleStrategy');
  if (!has(strategy, 'maxUnavailable')) return [];
  return validateMaxUnavailable(strategy?.maxUnavailable, spec, 'spec.scaleStrategy.maxUnavailable');
}
