/**
 * ASTS updateStrategy and maxUnavailable checks (docs/design/webhooks.md §9): partition and minReadySeconds
 * ranges, maxUnavailable other than integer 1 only with Parallel, InPlace* policies need the
 * InPlaceUpdateReady readiness gate, unorderedUpdate only with Parallel.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { intOrPercent, nonNegative } from '../../machinery/validation/checks.js';
import { child, has, items, type Json } from '../../machinery/json.js';
import { MaxMinReadySeconds, InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/index.js';
import { scaledIntOrPercent, validatePriorityStrategy } from '../common/strategy-validation.js';

const path = 'spec.updateStrategy';

export function validateStatefulSetUpdateStrategy(spec: Json): FieldError[] {
  const strategy = child(spec, 'updateStrategy') ?? {};
  const rolling = child(strategy, 'rollingUpdate');
  switch (strategy.type ?? '') {
    case '':
      return [field.required(path)];
    case 'OnDelete':
      return rolling ? [field.invalid(`${path}.rollingUpdate`, rolling, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return rolling ? rollingUpdateErrors(spec, rolling) : [];
    default:
      return [field.invalid(path, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function rollingUpdateErrors(spec: Json, rolling: Json): FieldError[] {
  const p = `${path}.rollingUpdate`;
  const errs = [...nonNegative(`${p}.partition`, rolling.partition), ...nonNegative(`${p}.minReadySeconds`, rolling.minReadySeconds)];
  if (typeof rolling.minReadySeconds === 'number' && rolling.minReadySeconds > MaxMinReadySeconds) {
    errs.push(field.invalid(`${p}.minReadySeconds`, rolling.minReadySeconds, 'must be no more than 300 seconds'));
  }
  if (!has(rolling, 'maxUnavailable')) errs.push(field.required(`${p}.maxUnavailable`));
  else errs.push(...validateMaxUnavailable(rolling.maxUnavailable, spec, `${p}.maxUnavailable`));
  errs.push(...podUpdatePolicyErrors(spec, rolling));
  if (has(rolling, 'unorderedUpdate')) {
    if (spec.podManagementPolicy !== 'Parallel') {
      errs.push(field.required(`${p}.unorderedUpdate`, 'unorderedUpdate can only work with Parallel PodManagementPolicyType'));
    }
    errs.push(...validatePriorityStrategy(child(rolling, 'unorderedUpdate')?.priorityStrategy, `${p}.unorderedUpdate.priorityStrategy`));
  }
  return errs;
}

/** Also used for scaleStrategy.maxUnavailable: resolves to at least 1; not exactly 1 needs Parallel. */
export function validateMaxUnavailable(value: unknown, spec: Json, p: string): FieldError[] {
  const errs = intOrPercent(p, value);
  const resolved = scaledIntOrPercent(value, 1, true);
  if (resolved.error !== undefined) errs.push(field.invalid(p, value, `getValueFromIntOrPercent error: ${resolved.error}`));
  else if (resolved.value < 1) errs.push(field.invalid(p, value, 'should not be less than 1'));
  if (spec.podManagementPolicy !== 'Parallel' && value !== 1) {
    errs.push(field.invalid(p, value, 'can only work with Parallel PodManagementPolicyType'));
  }
  return errs;
}

function podUpdatePolicyErrors(spec: Json, rolling: Json): FieldError[] {
  const policy = rolling.podUpdatePolicy ?? '';
  switch (policy) {
    case '':
      return [field.required(`${path}.rollingUpdate.podUpdatePolicy`)];
    case 'ReCreate':
      return [];
    case 'InPlaceIfPossible': case 'InPlaceOnly': {
      const gates = items(child(child(spec, 'template'), 'spec'), 'readinessGates');
      if (gates.some((g) => g.conditionType === InPlaceUpdateReadyCondition)) return [];
      return [field.invalid('spec.template.spec.readinessGates', gates,
        `must contains ${InPlaceUpdateReadyCondition} when podUpdatePolicy is ${policy as string}`)];
    }
    default:
      return [field.invalid(`${path}.rollingUpdate.podUpdatePolicy`, policy, "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'")];
  }
}
