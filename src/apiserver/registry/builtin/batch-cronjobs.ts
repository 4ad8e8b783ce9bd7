/** batch/v1 cronjobs: SetDefaults_CronJob, schedule/job-template validation. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { nonNegative, oneOf } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { validateJobSpecCore } from './job-spec.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, has, setDefault, str, type Json } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';

export function defaultCronJob(cj: KObject): void {
  const spec = ensure(cj, 'spec');
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  defaultPodTemplate(child(child(spec, 'jobTemplate'), 'spec')?.template);
}

const descriptors = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** The parts of robfig/cron's ParseStandard errors a user meets: field count and descriptors. */
export function cronScheduleError(schedule: string): string | undefined {
  const s = schedule.trim().replace(/^(CRON_)?TZ=\S+\s+/, '');
  if (s.startsWith('@')) {
    if (descriptors.includes(s)) return undefined;
    if (s.startsWith('@every ')) return /^@every (\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s) ? undefined : `failed to parse duration ${s}`;
    return `unrecognized descriptor: ${s}`;
  }
  const fields = s.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const bad = fields.find((f) => !/^[0-9A-Za-z*?/,-]+$/.test(f));
  return bad === undefined ? undefined : `failed to parse int from ${bad}`;
}

function validateJobTemplate(template: Json | undefined, path: string): FieldError[] {
  const spec = child(template, 'spec') ?? {};
  const errs = validateJobSpecCore(spec, `${path}.spec`);
  if (has(spec, 'selector')) errs.push(field.invalid(`${path}.spec.selector`, spec.selector, '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(field.notSupported(`${path}.spec.manualSelector`, true, ['nil', 'false']));
  return errs;
}

export function validateCronJob(cj: KObject): FieldError[] {
  const spec = specOf(cj);
  const errs: FieldError[] = [];
  const name = cj.metadata.name ?? '';
  if (name.length > 52) errs.push(field.invalid('metadata.name', name, 'must be no more than 52 characters'));
  const schedule = str(spec, 'schedule');
  if (!schedule) errs.push(field.required('spec.schedule'));
  else {
    const problem = cronScheduleError(schedule);
    if (problem) errs.push(field.invalid('spec.schedule', schedule, problem));
    if (schedule.includes('TZ')) errs.push(field.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  errs.push(...oneOf('spec.concurrencyPolicy', spec.concurrencyPolicy, ['Allow', 'Forbid', 'Replace']));
  for (const key of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    errs.push(...nonNegative(`spec.${key}`, spec[key]));
  }
  errs.push(...validateJobTemplate(child(spec, 'jobTemplate'), 'spec.jobTemplate'));
  return errs;
}

export function cronJobsResource(): BuiltinResource {
  return builtin(resource({
    group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true,
    shortNames: ['cj'], categories: ['all'], status: true,
  }), { default: defaultCronJob, validate: validateCronJob }, true);
}
