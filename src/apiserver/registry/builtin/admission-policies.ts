/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and its Binding, stored with
 * kube-apiserver's defaults and required-field validation; admission/admission-policies.ts
 * evaluates them (docs/design/apiserver.md §11).
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { child, has, items, setDefault, strings } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';
import { oneOf } from '../../../machinery/validation/checks.js';

const group = 'admissionregistration.k8s.io';

function defaultMatchResources(match: unknown): void {
  if (!match || typeof match !== 'object') return;
  const m = match as Record<string, unknown>;
  setDefault(m, 'namespaceSelector', {});
  setDefault(m, 'objectSelector', {});
  setDefault(m, 'matchPolicy', 'Equivalent');
  for (const rule of [...items(m, 'resourceRules'), ...items(m, 'excludeResourceRules')]) setDefault(rule, 'scope', '*');
}

export function validateAdmissionPolicy(policy: KObject): FieldError[] {
  const spec = specOf(policy);
  const errs: FieldError[] = [];
  if (!has(spec, 'matchConstraints')) errs.push(field.required('spec.matchConstraints'));
  if (items(spec, 'validations').length === 0 && items(spec, 'auditAnnotations').length === 0) {
    const why = 'validations or auditAnnotations must contain at least one item';
    errs.push(field.required('spec.validations', why), field.required('spec.auditAnnotations', why));
  }
  items(spec, 'validations').forEach((v, i) => {
    if (!v.expression) errs.push(field.required(`spec.validations[${i}].expression`));
  });
  errs.push(...oneOf('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore'], false));
  return errs;
}

export function validatingAdmissionPoliciesResource(): BuiltinResource {
  return builtin(resource({
    group, version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false, categories: ['api-extensions'], status: true,
  }), {
    default: (p) => {
      const spec = specOf(p);
      setDefault(spec, 'failurePolicy', 'Fail');
      defaultMatchResources(child(spec, 'matchConstraints'));
    },
    validate: validateAdmissionPolicy,
  }, true);
}

export function validateAdmissionPolicyBinding(binding: KObject): FieldError[] {
  const spec = specOf(binding);
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push(field.required('spec.policyName'));
  const actions = strings(spec, 'validationActions');
  if (actions.length === 0) errs.push(field.required('spec.validationActions', 'at least one validation action is required'));
  actions.forEach((a, i) => errs.push(...oneOf(`spec.validationActions[${i}]`, a, ['Audit', 'Deny', 'Warn'])));
  return errs;
}

export function validatingAdmissionPolicyBindingsResource(): BuiltinResource {
  return builtin(resource({
    group, version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings', namespaced: false, categories: ['api-extensions'],
  }), {
    default: (b) => defaultMatchResources(child(specOf(b), 'matchResources')),
    validate: validateAdmissionPolicyBinding,
  }, true);
}
