/**
 * ADS updateStrategy checks (docs/design/webhooks.md §10): RollingUpdate needs a rollingUpdate block with
 * exactly one of maxUnavailable and maxSurge non-zero (each a positive int or percent ≤ 100%),
 * InPlaceIfPossible without surge, and a partition ≥ 0 and ≤ 100%. v1alpha1 also knows `Surging`.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { intOrPercent } from '../../machinery/validation/checks.js';
import { child, has, type Json } from '../../machinery/json.js';
import { intOrPercentNumber } from '../common/strategy-validation.js';

const path = 'spec.updateStrategy';

export function validateDaemonSetUpdateStrategy(strategy: Json, v1alpha1: boolean): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const rolling = child(strategy, 'rollingUpdate');
      return rolling ? rollingUpdateErrors(rolling, v1alpha1) : [field.required(`${path}.rollingUpdate`)];
    }
    default:
      return [field.notSupported(`${path}.type`, strategy.type ?? '', ['RollingUpdate', 'OnDelete'])];
  }
}

function rollingUpdateErrors(rolling: Json, v1alpha1: boolean): FieldError[] {
  const p = `${path}.rollingUpdate`;
  const errs: FieldError[] = [];
  const hasUnavailable = has(rolling, 'maxUnavailable') && intOrPercentNumber(rolling.maxUnavailable) !== 0;
  const hasSurge = has(rolling, 'maxSurge') && intOrPercentNumber(rolling.maxSurge) !== 0;
  if (hasUnavailable) errs.push(...intOrPercent(`${p}.maxUnavailable`, rolling.maxUnavailable, true));
  if (hasSurge) errs.push(...intOrPercent(`${p}.maxSurge`, rolling.maxSurge, true));
  if (hasUnavailable && hasSurge) errs.push(field.invalid(`${p}.maxSurge`, rolling.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(field.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  errs.push(...rollingUpdateTypeErrors(rolling.rollingUpdateType ?? '', hasUnavailable, hasSurge, v1alpha1));
  errs.push(...intOrPercent(`${p}.partition`, rolling.partition, true));
  return errs;
}

function rollingUpdateTypeErrors(type: unknown, hasUnavailable: boolean, hasSurge: boolean, v1alpha1: boolean): FieldError[] {
  const p = `${path}.rollingUpdate`;
  switch (type) {
    case '': case 'Standard':
      return [];
    case 'InPlaceIfPossible':
      return hasSurge ? [field.required(`${p}.maxSurge`, 'must be 0 for InPlaceIfPossible type')] : [];
    case 'Surging':
      if (!v1alpha1) break;
      return hasUnavailable ? [field.required(`${p}.maxUnavailable`, 'must be 0 for Surging type')] : [];
  }
  const valid = v1alpha1 ? ['Standard', 'Surging', 'InPlaceIfPossible'] : ['Standard', 'InPlaceIfPossible'];
  return [field.notSupported(`${p}.rollingUpdateType`, type, valid)];
}
