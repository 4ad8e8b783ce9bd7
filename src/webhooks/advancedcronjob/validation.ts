/**
 * AdvancedCronJob validation (vadvancedcronjob.kb.io): name, schedule and time zone, exactly
 * one template (Job and BroadcastJob pod templates pass core validation; ImageListPullJob
 * templates their own rules), non-negative limits; on update only the scheduling fields (and an
 * existing imageListPullJobTemplate) may change.
 */
import type { KObject } from '../../api/meta.js';
import { cronScheduleError } from '../../machinery/cron.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, str, type Json } from '../../machinery/json.js';
import { validatePodTemplate } from '../../machinery/podspec/pod-spec-validation.js';
import { loadTimeZoneError } from '../../machinery/time-zone.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { validateAlnumDashName } from '../common/alnum-name.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { validateImageListPullJobTemplate } from './ilpj-template.js';

export function validateAdvancedCronJobRequest(input: AdmissionInput): FieldError[] {
  const obj = input.object;
  if (!obj || input.request.subResource) return [];
  const errs = validateAdvancedCronJob(obj);
  if (input.request.operation === 'UPDATE' && input.oldObject) errs.push(...validateAdvancedCronJobUpdate(obj, input.oldObject));
  return errs;
}

export function validateAdvancedCronJob(obj: KObject): FieldError[] {
  const spec = child(obj, 'spec') ?? {};
  const errs = [...validateAlnumDashName('AdvancedCronJob', obj.metadata?.name), ...validateSchedule(spec), ...validateTemplates(spec)];
  for (const key of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    errs.push(...nonNegative(`spec.${key}`, spec[key]));
  }
  errs.push(...validateTimeZone(spec));
  return errs;
}

function validateSchedule(spec: Json): FieldError[] {
  const schedule = str(spec, 'schedule');
  const errs: FieldError[] = [];
  if (!schedule) errs.push(field.invalid('spec.schedule', schedule, 'schedule cannot be empty, please provide valid cron schedule.'));
  const syntax = cronScheduleError(schedule);
  if (syntax) errs.push(field.invalid('spec.schedule', schedule, syntax));
  if (schedule.includes('TZ') && has(spec, 'timeZone')) {
    errs.push(field.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  return errs;
}

function validateTimeZone(spec: Json): FieldError[] {
  if (!has(spec, 'timeZone')) return [];
  const zone = str(spec, 'timeZone');
  if (!zone) return [field.invalid('spec.timeZone', zone, 'timeZone must be nil or non-empty string')];
  const errs: FieldError[] = [];
  if (zone.toLowerCase() === 'local') {
    errs.push(field.invalid('spec.timeZone', zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  }
  const loadError = loadTimeZoneError(zone);
  if (loadError) errs.push(field.invalid('spec.timeZone', zone, loadError));
  return errs;
}

const templateKinds = 'either JobTemplate, BroadcastJobTemplate or ImageListPullJobTemplate should be provided';

function validateTemplates(spec: Json): FieldError[] {
  const template = child(spec, 'template');
  const errs: FieldError[] = [];
  const present = ['jobTemplate', 'broadcastJobTemplate', 'imageListPullJobTemplate'].filter((k) => has(template, k));
  if (present.length === 0) errs.push(field.forbidden('spec.template', `spec must have one template, ${templateKinds}`));
  if (present.length > 1) errs.push(field.forbidden('spec.template', `spec can have only one template, ${templateKinds}`));
  for (const kind of ['jobTemplate', 'broadcastJobTemplate']) {
    if (!has(template, kind)) continue;
    const podTemplate = child(child(child(template, kind), 'spec'), 'template');
    errs.push(...validatePodTemplate(podTemplate, `spec.template.${kind}.spec.template`));
  }
  if (has(template, 'imageListPullJobTemplate')) errs.push(...validateImageListPullJobTemplate(spec, 'spec'));
  return errs;
}

const mutableFields = ['schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'paused', 'timeZone'];

/** Only the scheduling fields may change; an existing imageListPullJobTemplate may be edited too. */
export function validateAdvancedCronJobUpdate(obj: KObject, old: KObject): FieldError[] {
  const spec = structuredClone(child(obj, 'spec') ?? {});
  const oldSpec = child(old, 'spec') ?? {};
  for (const key of mutableFields) spec[key] = oldSpec[key];
  const oldTemplate = child(oldSpec, 'template');
  const template = child(spec, 'template');
  if (template && has(oldTemplate, 'imageListPullJobTemplate')) template.imageListPullJobTemplate = oldTemplate?.imageListPullJobTemplate;
  if (deepEqual(spec, oldSpec)) return [];
  return [field.forbidden('spec', "updates to advancedcronjob spec for fields other than 'schedule', 'concurrencyPolicy', "
    + "'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden")];
}
