/**
 * batch/v1 JobSpec pieces shared by Jobs and CronJob job templates: SetDefaults_Job and the spec
 * validation (counts, completion mode, replacement policy, a run-to-completion pod template).
 */
import { field, type FieldError } from '../../../machinery/errors.js';
import { nonNegative, oneOf } from '../../../machinery/validation/checks.js';
import { validatePodTemplate } from '../../../machinery/podspec/pod-spec-validation.js';
import { child, has, isObject, items, setDefault, type Json } from '../../../machinery/json.js';

export const maxInt32 = 2147483647;

/** SetDefaults_Job's spec part (Job objects only: templates inside CronJobs do not get it). */
export function defaultJobSpec(spec: Json): void {
  if (!has(spec, 'completions') && !has(spec, 'parallelism')) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', has(spec, 'backoffLimitPerIndex') ? maxInt32 : 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  const failurePolicy = child(spec, 'podFailurePolicy');
  for (const rule of items(failurePolicy, 'rules')) {
    for (const pattern of items(rule, 'onPodConditions')) setDefault(pattern, 'status', 'True');
  }
  setDefault(spec, 'podReplacementPolicy', failurePolicy ? 'Failed' : 'TerminatingOrFailed');
}

/** validateJobSpec upstream: everything but the selector. */
export function validateJobSpecCore(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    errs.push(...nonNegative(`${path}.${key}`, spec[key]));
  }
  if (has(spec, 'completionMode')) {
    errs.push(...oneOf(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']));
    if (spec.completionMode === 'Indexed' && !has(spec, 'completions')) {
      errs.push(field.required(`${path}.completions`, 'when completion mode is Indexed'));
    }
  }
  if (has(spec, 'podReplacementPolicy')) {
    const valid = has(spec, 'podFailurePolicy') ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
    errs.push(...oneOf(`${path}.podReplacementPolicy`, spec.podReplacementPolicy, valid));
  }
  if (!isObject(spec.template)) return [...errs, field.required(`${path}.template`)];
  errs.push(...validatePodTemplate(spec.template, `${path}.template`));
  const restartPolicy = child(spec.template, 'spec')?.restartPolicy;
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restartPolicy === 'Always' || !restartPolicy) {
    errs.push(field.required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(field.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (has(spec, 'podFailurePolicy') && restartPolicy !== 'Never') {
    errs.push(field.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}
