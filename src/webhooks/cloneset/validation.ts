/**
 * CloneSet validation shared by both versions (docs/design/webhooks.md §8): metadata, replicas, selector,
 * pod template (claim templates mocked in as volumes), podsToDelete duplicates, update strategy;
 * on update, the spec fields that may change.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf, validateRequiredSelector, validateSelectorMatchesTemplate } from '../../machinery/podspec/workload-validation.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { child, items, strings, type Json } from '../../machinery/json.js';
import { immutableExcept } from '../common/immutable-spec.js';
import { validateWorkloadMeta } from '../common/meta.js';
import { validateWorkloadTemplate } from '../common/workload-template.js';
import { validateCloneSetUpdateStrategy } from './update-strategy.js';

export function validateCloneSet(obj: KObject, v1alpha1: boolean): FieldError[] {
  const spec = specOf(obj);
  return [
    ...validateWorkloadMeta(obj),
    ...nonNegative('spec.replicas', spec.replicas),
    ...validateRequiredSelector(spec, 'spec', 'cloneset'),
    ...validateSelectorMatchesTemplate(spec, 'spec'),
    ...validateWorkloadTemplate(spec, 'spec', { kind: 'cloneset', claimTemplates: items(spec, 'volumeClaimTemplates') }),
    ...podsToDeleteDuplicates(spec),
    ...validateCloneSetUpdateStrategy(spec, v1alpha1),
  ];
}

export function podsToDeleteDuplicates(spec: Json): FieldError[] {
  const names = strings(child(spec, 'scaleStrategy'), 'podsToDelete');
  const duplicated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicated.length === 0) return [];
  return [field.invalid('spec.scaleStrategy.podsToDelete', names, `duplicated items [${duplicated.join(' ')}]`)];
}

const mutableFields = ['replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds',
  'progressDeadlineSeconds', 'volumeClaimTemplates', 'revisionHistoryLimit'];

export const immutableSpecMessage = "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', "
  + "'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and "
  + "'revisionHistoryLimit' are forbidden";

export function validateCloneSetSpecUpdate(obj: KObject, old: KObject): FieldError[] {
  return immutableExcept('spec', specOf(obj), specOf(old), mutableFields, immutableSpecMessage);
}
