/**
 * Rules for an AdvancedCronJob's imageListPullJobTemplate (v1beta1 only): the ImageListPullJob
 * checks (selector forms, 1..255 unique valid images) plus the cron-specific ones: concurrency
 * Replace or Forbid, completion Always, a deadline within a day and not shorter than one pull
 * attempt, and no TTL (history limits clean finished jobs up).
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { referenceError } from '../../machinery/image-reference.js';
import { child, has, num, str, strings, type Json } from '../../machinery/json.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';

const maxImages = 255;
const maxDeadlineSeconds = 86400;
const defaultPullTimeoutSeconds = 600;

export function validateImageListPullJobTemplate(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = str(spec, 'concurrencyPolicy');
  if (policy !== 'Replace' && policy !== 'Forbid') {
    errs.push(field.invalid(`${path}.concurrencyPolicy`, policy, 'concurrencyPolicy must be Replace or Forbid when imageListPullJobTemplate is set'));
  }
  const p = `${path}.template.imageListPullJobTemplate.spec`;
  const ilpj = child(child(child(spec, 'template'), 'imageListPullJobTemplate'), 'spec') ?? {};
  errs.push(...validateSelectors(ilpj, p), ...validateImages(strings(ilpj, 'images'), `${p}.images`), ...validateCompletion(ilpj, p));
  return errs;
}

function validateSelectors(ilpj: Json, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const selector = child(ilpj, 'selector');
  if (selector) {
    const names = strings(selector, 'names');
    if (!isEmptySelector(selector)) {
      if (has(selector, 'names')) errs.push(field.forbidden(`${p}.selector`, 'can not set both names and labelSelector in this spec.selector'));
      errs.push(...validateLabelSelector(selector, `${p}.selector`));
    }
    if (new Set(names).size !== names.length) errs.push(field.forbidden(`${p}.selector.names`, 'duplicated name in selector names'));
  }
  const podSelector = child(ilpj, 'podSelector');
  if (podSelector) {
    if (selector) errs.push(field.forbidden(`${p}.podSelector`, 'can not set both selector and podSelector'));
    errs.push(...validateLabelSelector(podSelector, `${p}.podSelector`));
  }
  return errs;
}

function validateImages(images: string[], p: string): FieldError[] {
  if (images.length === 0) return [field.forbidden(p, 'image can not be empty')];
  const errs: FieldError[] = [];
  if (new Set(images).size !== images.length) errs.push(field.forbidden(p, 'images cannot have duplicate values'));
  if (images.length > maxImages) errs.push(field.forbidden(p, `the maximum number of images cannot > ${maxImages}`));
  images.forEach((image, i) => {
    const why = referenceError(image);
    if (why) errs.push(field.invalid(`${p}[${i}]`, image, `invalid image ${image}: ${why}`));
  });
  return errs;
}

function validateCompletion(ilpj: Json, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const completion = child(ilpj, 'completionPolicy');
  const type = str(completion, 'type');
  if (type !== 'Always') errs.push(field.invalid(`${p}.completionPolicy.type`, type, 'completionPolicy only support Always in imageListPullJobTemplate'));
  const deadline = num(completion, 'activeDeadlineSeconds');
  const timeout = num(child(ilpj, 'pullPolicy'), 'timeoutSeconds') ?? defaultPullTimeoutSeconds;
  if (deadline !== undefined && deadline > maxDeadlineSeconds) {
    errs.push(field.invalid(`${p}.completionPolicy.activeDeadlineSeconds`, deadline, `activeDeadlineSeconds must be less than or equal to ${maxDeadlineSeconds}`));
  } else if (deadline !== undefined && deadline < timeout) {
    errs.push(field.invalid(`${p}.completionPolicy.activeDeadlineSeconds`, deadline,
      `activeDeadlineSeconds must be greater than or equal to pullPolicy.timeoutSeconds (${timeout})`));
  }
  if (has(completion, 'ttlSecondsAfterFinished')) {
    errs.push(field.forbidden(`${p}.completionPolicy.ttlSecondsAfterFinished`,
      'ttlSecondsAfterFinished is not supported in imageListPullJobTemplate; successfulJobsHistoryLimit and failedJobsHistoryLimit clean up finished jobs'));
  }
  return errs;
}
