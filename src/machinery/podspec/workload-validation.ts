/**
 * Checks shared by the controllers' specs (apps/v1, batch/v1, RC): selector presence and syntax, the
 * selector/template-labels match, and a long-running pod template (restartPolicy Always, no deadline).
 */
import { field, type FieldError } from '../errors.js';
import { isEmptySelector, selectorMatches, templateLabels, validateLabelSelector } from '../validation/label-selector.js';
import { validatePodTemplate } from './pod-spec-validation.js';
import { child, has, isObject, type Json } from '../json.js';

/** spec.selector required, valid, and not empty (`word` as upstream prints it: deployment, statefulset ...). */
export function validateRequiredSelector(spec: Json, path: string, word: string): FieldError[] {
  const selector = spec.selector;
  if (!isObject(selector)) return [field.required(`${path}.selector`)];
  const errs = validateLabelSelector(selector, `${path}.selector`);
  if (isEmptySelector(selector)) errs.push(field.invalid(`${path}.selector`, selector, `empty selector is invalid for ${word}`));
  return errs;
}

/** A non-empty selector must select the template's labels. */
export function validateSelectorMatchesTemplate(spec: Json, path: string): FieldError[] {
  const selector = spec.selector;
  if (!isObject(selector) || isEmptySelector(selector)) return [];
  const labels = templateLabels(spec.template);
  if (selectorMatches(selector, labels)) return [];
  return [field.invalid(`${path}.template.metadata.labels`, labels, '`selector` does not match template `labels`')];
}

/** A template for pods that run forever (ReplicaSet, Deployment, StatefulSet, DaemonSet, RC). */
export function validateLongRunningTemplate(spec: Json, path: string, kind: string): FieldError[] {
  const template = spec.template;
  if (!isObject(template)) return [field.required(`${path}.template`)];
  const errs = validatePodTemplate(template, `${path}.template`);
  const podSpec = child(template, 'spec');
  if (podSpec?.restartPolicy !== 'Always') {
    errs.push(field.notSupported(`${path}.template.spec.restartPolicy`, podSpec?.restartPolicy ?? '', ['Always']));
  }
  if (has(podSpec, 'activeDeadlineSeconds')) {
    errs.push(field.forbidden(`${path}.template.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

export function specOf(obj: unknown): Json {
  return child(obj, 'spec') ?? {};
}
