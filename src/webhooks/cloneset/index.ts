/**
 * Admission logic of CloneSet (`mcloneset.kb.io`, `vcloneset.kb.io`): defaulting and validation on
 * the v1beta1 hub, with the v1alpha1-only rules applied when the client wrote v1alpha1.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { withDeletionProtection } from '../protection/workload.js';
import { validateMetaUpdate } from '../common/meta.js';
import { defaultCloneSetObject } from './defaulting.js';
import { podsToDeleteDuplicates, validateCloneSet, validateCloneSetSpecUpdate } from './validation.js';
import { validateInPlaceOnlyUpdate, validateNewPodsToDelete, validateProgressDeadline } from './v1alpha1.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';

async function validateWrite(obj: KObject, old: KObject | undefined, input: AdmissionInput): Promise<FieldError[]> {
  const v1alpha1 = input.version === 'v1alpha1';
  const errs: FieldError[] = [];
  if (old) {
    errs.push(...validateMetaUpdate(obj, old), ...validateCloneSetSpecUpdate(obj, old));
    if (v1alpha1) errs.push(...validateInPlaceOnlyUpdate(obj, old));
  }
  errs.push(...validateCloneSet(obj, v1alpha1));
  if (v1alpha1) {
    errs.push(...validateProgressDeadline(obj));
    // Upstream stops at duplicates before looking pods up.
    if (podsToDeleteDuplicates(specOf(obj)).length === 0) errs.push(...await validateNewPodsToDelete(input.client, obj, old));
  }
  return errs;
}

export const cloneSetWebhooks: KindWebhooks = {
  default: defaultCloneSetObject,
  validate: withDeletionProtection(validateWrite),
  invalidCode: 422,
};
