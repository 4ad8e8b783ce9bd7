/**
 * EphemeralJob validation (vephemeraljobs.kb.io, v1alpha1, create and update): a valid selector,
 * and ephemeral containers as kube-apiserver validates them on pods/ephemeralcontainers (common
 * container checks after container defaults, unique names, no subPath, and none of the fields an
 * ephemeral container may not carry). Volume mounts and the target container are left alone: the
 * target pods are unknown here.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { child, items, str, type Json } from '../../machinery/json.js';
import { defaultContainer } from '../../machinery/podspec/container-defaults.js';
import { validateContainerCommon } from '../../machinery/podspec/container-validation.js';
import { validateLabelSelector } from '../../machinery/validation/label-selector.js';
import type { AdmissionInput } from '../kind-webhook.js';
import type { KObject } from '../../api/meta.js';

const notForEphemeral = ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy', 'restartPolicy'];
const forbiddenWhy = 'cannot be set for an Ephemeral Container';

export function validateEphemeralJobRequest(input: AdmissionInput): FieldError[] {
  const obj = input.object;
  if (!obj || input.request.subResource) return [];
  return validateEphemeralJob(obj);
}

export function validateEphemeralJob(obj: KObject): FieldError[] {
  const spec = child(obj, 'spec') ?? {};
  return [
    ...validateLabelSelector(spec.selector, 'spec.selector'),
    ...validateEphemeralContainers(items(child(spec, 'template'), 'ephemeralContainers'), 'spec.template.ephemeralContainers'),
  ];
}

function validateEphemeralContainers(containers: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((original, i) => {
    const p = `${path}[${i}]`;
    items(original, 'volumeMounts').forEach((m, j) => {
      for (const key of ['subPath', 'subPathExpr']) if (str(m, key)) errs.push(field.forbidden(`${p}.volumeMounts[${j}].${key}`, forbiddenWhy));
    });
    const c = structuredClone(original);
    delete c.volumeMounts;
    delete c.targetContainerName;
    defaultContainer(c);
    errs.push(...validateContainerCommon(c, p));
    const image = str(c, 'image');
    if (image !== image.trim()) errs.push(field.invalid(`${p}.image`, image, 'must not have leading or trailing whitespace'));
    const name = str(c, 'name');
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    names.add(name);
    for (const key of notForEphemeral) if (setField(original[key])) errs.push(field.forbidden(`${p}.${key}`, forbiddenWhy));
  });
  return errs;
}

/** Set in the Go sense: not the zero value (empty objects and lists count as unset). */
function setField(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(setField);
  return true;
}

