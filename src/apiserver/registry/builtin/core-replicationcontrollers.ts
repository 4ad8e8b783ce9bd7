/** core/v1 replicationcontrollers: SetDefaults_ReplicationController (selector and labels from the template). */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { nonNegative } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { templateLabels } from '../../../machinery/validation/label-selector.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { child, ensure, num, setDefault, stringMap } from '../../../machinery/json.js';
import { specOf, validateLongRunningTemplate } from '../../../machinery/podspec/workload-validation.js';

export function defaultReplicationController(rc: KObject): void {
  const spec = ensure(rc, 'spec');
  const labels = templateLabels(spec.template);
  if (Object.keys(labels).length > 0) {
    if (Object.keys(stringMap(spec, 'selector')).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec.template);
}

export function validateReplicationController(rc: KObject): FieldError[] {
  const spec = specOf(rc);
  const errs = [...nonNegative('spec.replicas', spec.replicas), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds)];
  const selector = stringMap(spec, 'selector');
  if (Object.keys(selector).length === 0) errs.push(field.required('spec.selector'));
  else {
    const labels = templateLabels(spec.template);
    if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      errs.push(field.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
  }
  errs.push(...validateLongRunningTemplate(spec, 'spec', 'ReplicationController'));
  return errs;
}

export function replicationControllersResource(): BuiltinResource {
  return builtin(resource({
    group: '', version: 'v1', kind: 'ReplicationController', plural: 'replicationcontrollers', namespaced: true,
    shortNames: ['rc'], categories: ['all'], status: true,
    // spec.selector is a plain map here, so the Scale's string selector cannot come from a LabelSelector path
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
  }), {
    default: defaultReplicationController,
    returnDeletedObject: true,
    // core/v1 keeps the pre-GC default: a DELETE without a policy orphans the pods
    defaultPropagationPolicy: 'Orphan',
    validate: validateReplicationController,
    fieldAttributes: (rc) => ({ 'status.replicas': String(num(child(rc, 'status'), 'replicas') ?? 0) }),
  }, true);
}
