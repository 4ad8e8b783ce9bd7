/**
 * Advanced DaemonSet validation (docs/design/webhooks.md §10): selector, pod template (validated after
 * in-memory defaulting, since no template defaults are injected), minReadySeconds,
 * revisionHistoryLimit, lifecycle, and the rolling update budget.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf, validateSelectorMatchesTemplate } from '../../machinery/podspec/workload-validation.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { isEmptySelector, validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { child, has, isObject, items, type Json } from '../../machinery/json.js';
import { immutableExcept } from '../common/immutable-spec.js';
import { validateWorkloadMeta } from '../common/meta.js';
import { validateWorkloadTemplate } from '../common/workload-template.js';
import { validateDaemonSetUpdateStrategy } from './update-strategy.js';

export function validateDaemonSet(obj: KObject, v1alpha1: boolean): FieldError[] {
  const spec = specOf(obj);
  return [
    ...validateWorkloadMeta(obj),
    ...selectorErrors(spec),
    ...validateWorkloadTemplate(spec, 'spec', { kind: 'DaemonSet', restartPolicyAfterDefaults: true }),
    ...readOnlyDiskErrors(spec),
    ...nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...validateDaemonSetUpdateStrategy(child(spec, 'updateStrategy') ?? {}, v1alpha1),
    ...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit),
    ...(has(child(spec, 'lifecycle'), 'inPlaceUpdate')
      ? [field.forbidden('spec.lifecycle.inPlaceUpdate', 'inPlaceUpdate hook has not supported yet')] : []),
  ];
}

function selectorErrors(spec: Json): FieldError[] {
  if (!isObject(spec.selector)) return [field.required('spec.selector')];
  const errs = [...validateLabelSelector(spec.selector, 'spec.selector'), ...validateSelectorMatchesTemplate(spec, 'spec')];
  if (isEmptySelector(spec.selector)) errs.push(field.invalid('spec.selector', spec.selector, 'empty selector is invalid for daemonset'));
  return errs;
}

/** Daemons run on many nodes, so a GCE PD must be mounted read-only (ValidateReadOnlyPersistentDisks). */
function readOnlyDiskErrors(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  items(child(spec.template, 'spec'), 'volumes').forEach((v, i) => {
    const disk = child(v, 'gcePersistentDisk');
    if (disk && disk.readOnly !== true) {
      errs.push(field.invalid(`spec.template.spec.volumes[${i}].gcePersistentDisk.readOnly`, false,
        'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only'));
    }
  });
  return errs;
}

const mutableFields = ['template', 'updateStrategy', 'lifecycle', 'burstReplicas', 'minReadySeconds', 'revisionHistoryLimit', 'scaleStrategy'];

export const immutableSpecMessage = "updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', "
  + "'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit' and 'scaleStrategy' are forbidden";

export function validateDaemonSetSpecUpdate(obj: KObject, old: KObject): FieldError[] {
  return immutableExcept('spec', specOf(obj), specOf(old), mutableFields, immutableSpecMessage);
}
