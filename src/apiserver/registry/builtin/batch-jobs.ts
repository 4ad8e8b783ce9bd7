/**
 * batch/v1 jobs: defaults, the generated selector and labels (prepareForCreate, once the uid exists),
 * validation, update immutability, `status.successful` field selector and Orphan default propagation.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { clone } from '../../../machinery/deep-equal.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { defaultJobSpec, validateJobSpecCore } from './job-spec.js';
import { selectorMatches, templateLabels, validateLabelSelector } from '../../../machinery/validation/label-selector.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, has, isObject, num, type Json } from '../../../machinery/json.js';
import { specOf, validateSelectorMatchesTemplate } from '../../../machinery/podspec/workload-validation.js';

export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const legacyControllerUidLabel = 'controller-uid';
export const legacyJobNameLabel = 'job-name';

export function defaultJob(job: KObject): void {
  const spec = ensure(job, 'spec');
  defaultJobSpec(spec);
  copyTemplateLabels(job);
  defaultPodTemplate(spec.template);
}

/** Upstream defaulting gives a label-less Job its template's labels (generated ones included). */
function copyTemplateLabels(job: KObject): void {
  const labels = templateLabels(specOf(job).template);
  if (Object.keys(labels).length > 0 && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

/** Selector `batch.kubernetes.io/controller-uid=<uid>` and the four template labels, unless manualSelector. */
export function prepareJobForCreate(job: KObject): void {
  const spec = ensure(job, 'spec');
  if (spec.manualSelector !== true) {
    const labels = ensure(ensure(ensure(spec, 'template'), 'metadata'), 'labels');
    const name = job.metadata.name ?? '';
    const uid = job.metadata.uid ?? '';
    for (const key of [legacyJobNameLabel, jobNameLabel]) if (labels[key] === undefined) labels[key] = name;
    for (const key of [legacyControllerUidLabel, controllerUidLabel]) if (labels[key] === undefined) labels[key] = uid;
    const matchLabels = ensure(ensure(spec, 'selector'), 'matchLabels');
    if (matchLabels[controllerUidLabel] === undefined) matchLabels[controllerUidLabel] = uid;
  }
  copyTemplateLabels(job);
}

export function validateJob(job: KObject): FieldError[] {
  const spec = specOf(job);
  const errs = validateGeneratedSelector(job, spec);
  errs.push(...validateJobSpecCore(spec, 'spec'));
  if (!isObject(spec.selector)) errs.push(field.required('spec.selector'));
  else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  errs.push(...validateSelectorMatchesTemplate(spec, 'spec'));
  return errs;
}

function validateGeneratedSelector(job: KObject, spec: Json): FieldError[] {
  if (spec.manualSelector === true || !isObject(spec.selector)) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (!uid) errs.push(field.required('metadata.uid'));
  const labels = templateLabels(spec.template);
  const expected: Record<string, string> = {
    [legacyControllerUidLabel]: uid, [legacyJobNameLabel]: name, [controllerUidLabel]: uid, [jobNameLabel]: name,
  };
  for (const [key, value] of Object.entries(expected)) {
    const path = `spec.template.metadata.labels[${key}]`;
    if (labels[key] === undefined) errs.push(field.required(path, value));
    else if (labels[key] !== value) errs.push(field.invalid(path, labels, `must be '${value}'`));
  }
  if (!selectorMatches(spec.selector, expected)) errs.push(field.invalid('spec.selector', spec.selector, '`selector` not auto-generated'));
  return errs;
}

export function validateJobUpdate(job: KObject, old: KObject): FieldError[] {
  const spec = specOf(job);
  const oldSpec = specOf(old);
  const errs = [
    ...validateCompletionsUpdate(spec, oldSpec),
    ...immutable('spec.selector', spec.selector, oldSpec.selector),
    ...validateTemplateUpdate(spec, oldSpec, old),
  ];
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errs.push(...immutable(`spec.${key}`, spec[key], oldSpec[key]));
  }
  return errs;
}

/** Completions may change only for Indexed jobs, together with parallelism (elastic indexed jobs). */
function validateCompletionsUpdate(spec: Json, oldSpec: Json): FieldError[] {
  if (spec.completionMode !== 'Indexed') return immutable('spec.completions', spec.completions, oldSpec.completions);
  if (semanticEqual(spec.completions, oldSpec.completions) || !has(spec, 'completions')) return [];
  return spec.completions === spec.parallelism ? []
    : [field.invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism')];
}

/** The template is immutable, except scheduling directives of a suspended job that never started. */
function validateTemplateUpdate(spec: Json, oldSpec: Json, old: KObject): FieldError[] {
  const template = spec.template;
  let oldTemplate = oldSpec.template;
  const neverStarted = !has(child(old, 'status'), 'startTime');
  if (oldSpec.suspend === true && neverStarted && isObject(template) && isObject(oldTemplate)) {
    oldTemplate = clone(oldTemplate) as Json;
    const meta = ensure(oldTemplate as Json, 'metadata');
    const podSpec = ensure(oldTemplate as Json, 'spec');
    const newMeta = child(template, 'metadata') ?? {};
    const newPodSpec = child(template, 'spec') ?? {};
    for (const key of ['labels', 'annotations']) meta[key] = newMeta[key];
    for (const key of ['affinity', 'nodeSelector', 'tolerations', 'schedulingGates']) podSpec[key] = newPodSpec[key];
  }
  return immutable('spec.template', template, oldTemplate);
}

export function jobsResource(): BuiltinResource {
  return builtin(resource({
    group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true, categories: ['all'], status: true,
  }), {
    default: defaultJob,
    prepareForCreate: prepareJobForCreate,
    validate: validateJob,
    validateUpdate: validateJobUpdate,
    fieldAttributes: (job) => ({ 'status.successful': String(num(child(job, 'status'), 'succeeded') ?? 0) }),
    defaultPropagationPolicy: 'Orphan',
  }, true);
}
