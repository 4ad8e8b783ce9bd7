/**
 * ValidatePodSpec and ValidatePodTemplateSpec: the checks every pod spec gets, in a Pod or in a
 * workload's template. Paths are given by the caller (`spec` or `spec.template.spec`).
 */
import { field, type FieldError } from '../errors.js';
import { isValidLabelValue, validateAnnotations, validateLabels } from '../validation/names.js';
import { dnsLabel, dnsSubdomain, oneOf, qualifiedName } from '../validation/checks.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers } from './container-validation.js';
import { child, isObject, items, num, str, stringMap, type Json } from '../json.js';

const maxInt32 = 2147483647;

export function validatePodSpec(specValue: unknown, path: string): FieldError[] {
  const spec: Json = isObject(specValue) ? specValue : {};
  const errs: FieldError[] = [];
  errs.push(...validateVolumes(items(spec, 'volumes'), `${path}.volumes`));
  const containers = items(spec, 'containers');
  const inits = items(spec, 'initContainers');
  errs.push(...validateContainers(containers, `${path}.containers`));
  errs.push(...validateInitContainers(inits, containers, `${path}.initContainers`));
  errs.push(...validateEphemeralContainers(items(spec, 'ephemeralContainers'), [...containers, ...inits], `${path}.ephemeralContainers`));
  errs.push(...oneOf(`${path}.restartPolicy`, spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  errs.push(...oneOf(`${path}.dnsPolicy`, spec.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  const deadline = num(spec, 'activeDeadlineSeconds');
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32)) {
    errs.push(field.invalid(`${path}.activeDeadlineSeconds`, deadline, `must be between 1 and ${maxInt32}, inclusive`));
  }
  for (const key of ['serviceAccountName', 'nodeName', 'priorityClassName']) {
    const value = str(spec, key);
    if (value) errs.push(...dnsSubdomain(`${path}.${key}`, value));
  }
  errs.push(...validateTolerations(items(spec, 'tolerations'), `${path}.tolerations`));
  errs.push(...validateSchedulingGates(items(spec, 'schedulingGates'), `${path}.schedulingGates`));
  return errs;
}

/** A PodTemplateSpec: its labels and annotations, then its spec. */
export function validatePodTemplate(template: unknown, path: string): FieldError[] {
  const meta = child(template, 'metadata');
  return [
    ...validateLabels(stringMap(meta, 'labels'), `${path}.metadata.labels`),
    ...validateAnnotations(stringMap(meta, 'annotations'), `${path}.metadata.annotations`),
    ...validatePodSpec(child(template, 'spec'), `${path}.spec`),
  ];
}

function validateVolumes(volumes: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const name = str(v, 'name');
    const p = `${path}[${i}].name`;
    if (!name) errs.push(field.required(p));
    else errs.push(...dnsLabel(p, name));
    if (name && names.has(name)) errs.push(field.duplicate(p, name));
    names.add(name);
  });
  return errs;
}

export function validateTolerations(tolerations: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = str(t, 'key');
    const operator = str(t, 'operator');
    if (key) errs.push(...qualifiedName(`${p}.key`, key));
    else if (operator !== 'Exists') {
      errs.push(field.invalid(`${p}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push(field.invalid(`${p}.effect`, str(t, 'effect'), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === '' || operator === 'Equal') {
      const msgs = isValidLabelValue(str(t, 'value'));
      if (msgs.length) errs.push(field.invalid(`${p}.operator`, str(t, 'value'), msgs.join(';')));
    } else if (operator === 'Exists') {
      if (str(t, 'value')) errs.push(field.invalid(`${p}.operator`, t, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(field.notSupported(`${p}.operator`, operator, ['Equal', 'Exists']));
    }
    if (str(t, 'effect')) errs.push(...oneOf(`${p}.effect`, t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
  });
  return errs;
}

function validateSchedulingGates(gates: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  gates.forEach((g, i) => {
    const name = str(g, 'name');
    errs.push(...qualifiedName(`${path}[${i}].name`, name));
    if (seen.has(name)) errs.push(field.duplicate(`${path}[${i}].name`, name));
    seen.add(name);
  });
  return errs;
}
