/**
 * BroadcastJob validation (vbroadcastjob.kb.io, create and update, no immutable fields): the
 * name rule, completionPolicy Never without ttl/deadline, a run-to-completion pod template
 * without the controller's labels, and core pod-template validation.
 */
import { BroadcastJobControllerUidLabel, BroadcastJobNameLabel } from '../../api/kruise/ops/index.js';
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, str, stringMap, type Json } from '../../machinery/json.js';
import { validatePodTemplate } from '../../machinery/podspec/pod-spec-validation.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { validateAlnumDashName } from '../common/alnum-name.js';

export function validateBroadcastJobRequest(input: AdmissionInput): FieldError[] {
  const obj = input.object;
  if (!obj || input.request.subResource) return [];
  return validateBroadcastJob(obj);
}

export function validateBroadcastJob(obj: KObject): FieldError[] {
  return [
    ...validateAlnumDashName('BroadcastJob', obj.metadata?.name),
    ...validateBroadcastJobSpec(child(obj, 'spec') ?? {}, 'spec'),
  ];
}

export function validateBroadcastJobSpec(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const completion = child(spec, 'completionPolicy');
  if (str(completion, 'type') === 'Never') {
    for (const key of ['ttlSecondsAfterFinished', 'activeDeadlineSeconds']) {
      if (has(completion, key)) {
        errs.push(field.invalid(`${path}.completionPolicy.${key}`, completion?.[key], `${key} can just work with Always CompletionPolicyType`));
      }
    }
  }
  const template = child(spec, 'template');
  const restartPolicy = str(child(template, 'spec'), 'restartPolicy');
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(field.invalid(`${path}.template.spec.restartPolicy`, restartPolicy, 'pod restartPolicy can only be Never or OnFailure'));
  }
  const labels = stringMap(child(template, 'metadata'), 'labels');
  if (labels[BroadcastJobNameLabel] || labels[BroadcastJobControllerUidLabel]) {
    errs.push(field.invalid(`${path}.template.metadata.labels`, labels,
      `"${BroadcastJobNameLabel}" and "${BroadcastJobControllerUidLabel}" are not allowed to preset in pod labels`));
  }
  errs.push(...validatePodTemplate(template, `${path}.template`));
  return errs;
}
