/**
 * CloneSet updateStrategy checks (docs/design/webhooks.md §8). The hub keeps the rolling fields under
 * `rollingUpdate`; a v1alpha1 client wrote them flat, so its errors name the flat paths.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { child, has, num, type Json } from '../../machinery/json.js';
import { scaledIntOrPercent, validatePriorityStrategy, validateScatterStrategy } from '../common/strategy-validation.js';

const path = 'spec.updateStrategy';
const podUpdatePolicies = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'];
const alphaTypeMessage = "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'";

export function validateCloneSetUpdateStrategy(spec: Json, v1alpha1: boolean): FieldError[] {
  const strategy = child(spec, 'updateStrategy') ?? {};
  const rolling = child(strategy, 'rollingUpdate');
  const errs = v1alpha1 ? alphaTypeErrors(strategy, rolling) : betaTypeErrors(strategy, rolling);
  // OnDelete has no rolling fields; a RollingUpdate without them runs on the controller's defaults.
  if (!rolling) return errs;
  const rollingPath = v1alpha1 ? path : `${path}.rollingUpdate`;
  errs.push(...rollingFieldErrors(rolling, rollingPath, num(spec, 'replicas') ?? 1));
  if (!v1alpha1) errs.push(...preDownloadErrors(child(rolling, 'inPlaceUpdateStrategy'), `${rollingPath}.inPlaceUpdateStrategy`));
  return errs;
}

/** v1alpha1 knows ReCreate/InPlaceIfPossible/InPlaceOnly only: OnDelete is rejected. */
function alphaTypeErrors(strategy: Json, rolling: Json | undefined): FieldError[] {
  if (strategy.type !== 'RollingUpdate') return [field.invalid(`${path}.type`, strategy.type ?? '', alphaTypeMessage)];
  const policy = rolling?.podUpdatePolicy ?? '';
  if (policy !== '' && !podUpdatePolicies.includes(policy as string)) return [field.invalid(`${path}.type`, policy, alphaTypeMessage)];
  return [];
}

function betaTypeErrors(strategy: Json, rolling: Json | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const type = strategy.type ?? '';
  if (type !== '' && type !== 'RollingUpdate' && type !== 'OnDelete') {
    errs.push(field.notSupported(`${path}.type`, type, ['RollingUpdate', 'OnDelete']));
  }
  const policy = rolling?.podUpdatePolicy ?? '';
  if (policy !== '' && !podUpdatePolicies.includes(policy as string)) {
    errs.push(field.notSupported(`${path}.rollingUpdate.podUpdatePolicy`, policy, podUpdatePolicies));
  }
  return errs;
}

function scaled(rolling: Json, key: string, p: string, replicas: number, errs: FieldError[]): number {
  const result = scaledIntOrPercent(rolling[key], replicas, true);
  if (result.error === undefined) return result.value;
  errs.push(field.invalid(`${p}.${key}`, String(rolling[key]), `failed GetScaledValueFromIntOrPercent for ${key}: ${result.error}`));
  return 0;
}

function rollingFieldErrors(rolling: Json, p: string, replicas: number): FieldError[] {
  const errs: FieldError[] = [];
  const partition = scaled(rolling, 'partition', p, replicas, errs);
  errs.push(...nonNegative(`${p}.partition`, partition));
  errs.push(...validatePriorityStrategy(rolling.priorityStrategy, `${p}.priorityStrategy`));
  errs.push(...validateScatterStrategy(rolling.scatterStrategy, `${p}.scatterStrategy`));
  const maxUnavailable = has(rolling, 'maxUnavailable') ? scaled(rolling, 'maxUnavailable', p, replicas, errs) : 0;
  const maxSurge = has(rolling, 'maxSurge') ? scaled(rolling, 'maxSurge', p, replicas, errs) : 0;
  if (rolling.podUpdatePolicy === 'InPlaceOnly' && maxSurge > 0) {
    errs.push(field.invalid(`${p}.maxSurge`, String(rolling.maxSurge), 'can not use maxSurge with strategy type InPlaceOnly'));
  }
  if (replicas > 0 && maxUnavailable < 1 && maxSurge < 1) {
    errs.push(field.invalid(`${p}.maxUnavailable`, rolling.maxUnavailable ?? null, 'maxUnavailable and maxSurge should not both be less than 1'));
  }
  return errs;
}

/** v1beta1 fields (v1alpha1 keeps these in annotations, which it does not validate). */
function preDownloadErrors(strategy: Json | undefined, p: string): FieldError[] {
  if (!strategy) return [];
  const errs: FieldError[] = [];
  const parallelism = strategy.imagePreDownloadParallelism;
  if (typeof parallelism === 'string') {
    errs.push(field.invalid(`${p}.imagePreDownloadParallelism`, parallelism, 'must be a non-negative integer, percentage is not supported'));
  } else {
    errs.push(...nonNegative(`${p}.imagePreDownloadParallelism`, parallelism));
  }
  errs.push(...nonNegative(`${p}.imagePreDownloadTimeoutSeconds`, strategy.imagePreDownloadTimeoutSeconds));
  errs.push(...nonNegative(`${p}.imagePreDownloadMinUpdatedReadyPods`, strategy.imagePreDownloadMinUpdatedReadyPods));
  return errs;
}
