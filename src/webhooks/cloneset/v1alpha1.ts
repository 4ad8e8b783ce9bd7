/**
 * The rules only the v1alpha1 CloneSet validator applies (docs/design/webhooks.md §8): newly listed
 * podsToDelete must be live pods of this CloneSet, InPlaceOnly updates may only change images, and
 * progressDeadlineSeconds must exceed minReadySeconds.
 */
import type { KObject } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';
import { nonNegative } from '../../machinery/validation/checks.js';
import { child, num, strings } from '../../machinery/json.js';
import { CloneSetProgressDeadlineDisabled } from '../../api/kruise/workloads/index.js';
import { nonImageChange } from '../common/template-diff.js';

const podsToDeletePath = 'spec.scaleStrategy.podsToDelete';

export async function validateNewPodsToDelete(client: Client, obj: KObject, old: KObject | undefined): Promise<FieldError[]> {
  const previous = new Set(old ? strings(child(specOf(old), 'scaleStrategy'), 'podsToDelete') : []);
  const added = [...new Set(strings(child(specOf(obj), 'scaleStrategy'), 'podsToDelete'))].filter((n) => !previous.has(n)).sort();
  const errs: FieldError[] = [];
  for (const name of added) {
    let pod: KObject;
    try {
      pod = await client.get(Pods, obj.metadata.namespace, name);
    } catch (err) {
      errs.push(field.invalid(podsToDeletePath, name, `find pod ${name} failed: ${(err as Error).message}`));
      continue;
    }
    const owner = pod.metadata.ownerReferences?.find((ref) => ref.controller === true);
    if (pod.metadata.deletionTimestamp) {
      errs.push(field.invalid(podsToDeletePath, name, `find pod ${name} already terminating`));
    } else if (!owner || owner.uid !== obj.metadata.uid) {
      errs.push(field.invalid(podsToDeletePath, name, `find pod ${name} owner is not this CloneSet`));
    }
  }
  return errs;
}

export function validateInPlaceOnlyUpdate(obj: KObject, old: KObject): FieldError[] {
  const policy = child(child(specOf(obj), 'updateStrategy'), 'rollingUpdate')?.podUpdatePolicy;
  if (policy !== 'InPlaceOnly') return [];
  const templateSpec = (o: KObject): unknown => child(specOf(o).template, 'spec');
  const change = nonImageChange(templateSpec(old), templateSpec(obj));
  return change ? [field.forbidden('spec', `only allowed to update images in spec for InPlaceOnly, but found ${change}`)] : [];
}

export function validateProgressDeadline(obj: KObject): FieldError[] {
  const spec = specOf(obj);
  const deadline = num(spec, 'progressDeadlineSeconds');
  if (deadline === undefined || deadline === CloneSetProgressDeadlineDisabled) return [];
  const errs = nonNegative('spec.progressDeadlineSeconds', deadline);
  if (deadline <= (num(spec, 'minReadySeconds') ?? 0)) {
    errs.push(field.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}
