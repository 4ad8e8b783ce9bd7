/**
 * Pod-template checks of the Kruise workloads: the template passes kube's pod-template validation
 * (on an in-memory defaulted copy, so templates admitted with TemplateNoDefaults are not rejected
 * for fields only defaulting fills), restartPolicy must be Always, activeDeadlineSeconds is forbidden.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { clone } from '../../machinery/deep-equal.js';
import { defaultPodTemplate } from '../../machinery/podspec/pod-spec-defaults.js';
import { validatePodTemplate } from '../../machinery/podspec/pod-spec-validation.js';
import { child, ensure, has, isObject, items, str, type Json } from '../../machinery/json.js';

export interface WorkloadTemplateRules {
  /** How activeDeadlineSeconds' message names the kind: `cloneset`, `StatefulSet`, `DaemonSet`. */
  kind: string;
  /** volumeClaimTemplates mocked into the template as PVC volumes (CloneSet does this). */
  claimTemplates?: Json[];
  /** Check restartPolicy on the defaulted copy (ADS) instead of the template as sent (empty allowed). */
  restartPolicyAfterDefaults?: boolean;
}

/** `spec.template` of a workload at `path` (`spec`). */
export function validateWorkloadTemplate(spec: Json, path: string, rules: WorkloadTemplateRules): FieldError[] {
  const template = spec.template;
  if (!isObject(template)) return [field.required(`${path}.template`)];
  const defaulted = defaultedTemplate(template, rules.claimTemplates ?? []);
  const errs = validatePodTemplate(defaulted, `${path}.template`);
  const raw = child(template, 'spec');
  const restartPolicy = rules.restartPolicyAfterDefaults ? str(child(defaulted, 'spec'), 'restartPolicy') : str(raw, 'restartPolicy');
  if ((rules.restartPolicyAfterDefaults || restartPolicy !== '') && restartPolicy !== 'Always') {
    errs.push(field.notSupported(`${path}.template.spec.restartPolicy`, restartPolicy, ['Always']));
  }
  if (has(raw, 'activeDeadlineSeconds')) {
    errs.push(field.forbidden(`${path}.template.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${rules.kind} is not Supported`));
  }
  return errs;
}

/** A copy of `template` with kube's pod defaults and one PVC volume per claim template appended. */
export function defaultedTemplate(template: Json, claimTemplates: Json[] = []): Json {
  const copy = clone(template);
  defaultPodTemplate(copy);
  const spec = ensure(copy, 'spec');
  const volumes = items(spec, 'volumes');
  for (const claim of claimTemplates) {
    const name = str(child(claim, 'metadata'), 'name');
    volumes.push({ name, persistentVolumeClaim: { claimName: name } });
  }
  if (claimTemplates.length > 0) spec.volumes = volumes;
  return copy;
}
